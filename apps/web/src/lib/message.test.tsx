import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Modal } from 'antd';
import { renderAt } from '../test/render';
import { setLanguage } from './i18n';
import { confirmAction, dismissMessage, registerMessageApis, showError, showLoading, showSuccess } from './message';

afterEach(() => Modal.destroyAll());

describe('confirmAction', () => {
  it('defaults its buttons to 确定/取消 in zh and runs onOk', async () => {
    setLanguage('zh');
    let isConfirmed = false;
    renderAt('/', null);
    confirmAction({ title: '删除吗？', onOk: () => (isConfirmed = true) });
    await screen.findAllByText('删除吗？');
    expect(screen.getByText('取消')).toBeTruthy();
    fireEvent.click(screen.getByText('确定'));
    await waitFor(() => expect(isConfirmed).toBe(true));
  });

  it('defaults to OK/Cancel in en, and takes explicit texts', async () => {
    setLanguage('en');
    renderAt('/', null);
    confirmAction({ title: 'Delete?', onOk: () => undefined });
    await screen.findAllByText('Delete?');
    expect(screen.getByText('OK')).toBeTruthy();
    expect(screen.getByText('Cancel')).toBeTruthy();
    Modal.destroyAll();
    confirmAction({ title: 'Remove?', onOk: () => undefined, okText: 'Remove', cancelText: 'Keep' });
    await screen.findAllByText('Remove?');
    expect(screen.getByText('Keep')).toBeTruthy();
  });
});

describe('messages', () => {
  it('a success with the loading key replaces the loading toast in place', async () => {
    renderAt('/', null);
    const key = showLoading('保存中');
    await screen.findByText('保存中');
    showSuccess('已保存', key);
    await screen.findByText('已保存');
    expect(screen.queryByText('保存中')).toBeNull();
    expect(document.querySelectorAll('.ant-message-notice').length).toBe(1);
  });
});

describe('toasts without antd (the sign-in pages)', () => {
  // An earlier test's antd toasts stay as light ones once its <App> unmounts: start without them.
  beforeEach(() => document.querySelectorAll('.light-toast').forEach((el) => el.remove()));

  it('shows a light toast, replaces it by key and takes it back', () => {
    const key = showLoading('Signing in');
    expect(document.querySelector('.light-toast')?.textContent).toBe('Signing in');
    showError('Wrong password', key);
    expect([...document.querySelectorAll('.light-toast')].map((el) => el.textContent)).toEqual(['Wrong password']);
    dismissMessage(key);
    expect(document.querySelector('.light-toast')).toBeNull();
  });

  it("keeps a toast antd was showing when antd's <App> goes (a signed-in page giving way to /login)", () => {
    const fakeMessage = { open: () => undefined, destroy: () => undefined } as never;
    registerMessageApis({ message: fakeMessage, modal: {} as never });
    showError('Your session has expired');
    const lightTexts = () => [...document.querySelectorAll('.light-toast')].map((el) => el.textContent);
    expect(lightTexts()).not.toContain('Your session has expired');
    registerMessageApis(null, fakeMessage);
    expect(lightTexts()).toContain('Your session has expired');
  });
});
