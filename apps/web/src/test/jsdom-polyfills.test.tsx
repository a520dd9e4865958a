import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dropdown, Form, Input, Tabs } from 'antd';
import { describe, expect, it } from 'vitest';

// The tests' getComputedStyle answers without a cascade (jsdom-polyfills.ts): what it answers must still
// keep hidden what a user could not see, or a query would find it and an assertion pass that should fail.
describe("the tests' getComputedStyle", () => {
  it('hides by inline style and by the hidden attribute, and shows the rest', () => {
    render(
      <div>
        <button style={{ display: 'none' }}>inline</button>
        <button hidden>attribute</button>
        <div style={{ visibility: 'hidden' }}>
          <button>inside</button>
        </div>
        <button>shown</button>
      </div>,
    );
    expect(screen.queryByRole('button', { name: 'inline' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'attribute' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'inside' })).toBeNull();
    expect(screen.getByRole('button', { name: 'shown' })).toBeTruthy();
  });

  it("keeps an inactive tab's pane hidden until its tab is chosen", async () => {
    render(
      <Tabs
        items={[
          { key: 'a', label: 'First', children: <button>in first</button> },
          { key: 'b', label: 'Second', children: <button>in second</button>, forceRender: true },
        ]}
      />,
    );
    expect(screen.getByRole('button', { name: 'in first' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'in second' })).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Second' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'in first' })).toBeNull());
    expect(screen.getByRole('button', { name: 'in second' })).toBeTruthy();
  });

  it('names a field by its label, required mark and all', () => {
    render(
      <Form>
        <Form.Item label="Address" name="address" rules={[{ required: true }]} required>
          <Input />
        </Form.Item>
      </Form>,
    );
    expect(screen.getByRole('textbox', { name: 'Address' })).toBeTruthy();
  });

  it("hides a dropdown's menu once it has closed", async () => {
    render(
      <Dropdown menu={{ items: [{ key: 'x', label: 'Item X' }] }} trigger={['click']}>
        <button>Open</button>
      </Dropdown>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('menuitem', { name: 'Item X' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menuitem', { name: 'Item X' })).toBeNull());
  });
});
