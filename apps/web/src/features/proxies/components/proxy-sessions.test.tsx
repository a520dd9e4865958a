import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TSessionHold, TSessionHoldsPage } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeToken } from '../../../test/fixtures';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { matchMediaAtWidth } from '../../../test/screen-width';
import { setLanguage } from '../../../lib/i18n';
import { DetailDrawer } from './detail-drawer';

const DYNAMIC = makeToken({
  token_id: 5,
  product: 'dynamic',
  type: 'traffic',
  usage: { used_bytes: 2048, limit_bytes: 1024 ** 3 },
});
const STATIC = makeToken({ token_id: 6 });

function hold(session: string, overrides: Partial<TSessionHold> = {}): TSessionHold {
  return {
    session,
    started_at: '2026-06-20T10:00:00.000Z',
    last_seen_at: '2026-06-20T10:08:00.000Z',
    asked_minutes: 10,
    kept_minutes: 8,
    held: true,
    end_reason: null,
    end_reason_text: null,
    connections: 4,
    ...overrides,
  };
}

const FAILED = hold('k3x9q2', {
  kept_minutes: 4.5,
  held: false,
  end_reason: 'failover',
  end_reason_text: 'Pool failed, moved to another exit',
});
const IDLE = hold('idle7', {
  asked_minutes: 60,
  kept_minutes: 12,
  held: false,
  end_reason: 'idle',
  end_reason_text: 'Idle longer than the pool keeps a session',
});

/** A report of 50 sessions, 48 held: one moved by failover, one idle; the page holds the three above. */
const REPORT: TSessionHoldsPage = {
  records: [hold('held1'), FAILED, IDLE],
  total: 50,
  page: 1,
  page_size: 10,
  summary: {
    sessions: 50,
    held: 48,
    held_share: 0.96,
    ends: { failover: 1, 'exit-changed': 0, idle: 1, 'proxy-stopped': 0 },
  },
  from: '2026-06-13T10:00:00.000Z',
  to: '2026-06-20T10:00:00.000Z',
};

const EMPTY: TSessionHoldsPage = {
  ...REPORT,
  records: [],
  total: 0,
  summary: {
    sessions: 0,
    held: 0,
    held_share: 0,
    ends: { failover: 0, 'exit-changed': 0, idle: 0, 'proxy-stopped': 0 },
  },
};

function traffic(uncharged: number) {
  return {
    granularity: 'day' as const,
    from: '2026-01-01T00:00:00.000Z',
    to: '2026-01-02T00:00:00.000Z',
    points: [{ at: '2026-01-01T00:00:00.000Z', bytes: 2048, uncharged_bytes: uncharged }],
    total_bytes: 2048,
    total_uncharged_bytes: uncharged,
  };
}

beforeEach(() => {
  api.on('tokenSessionHolds', (req) => (req.query.get('token_id') === '5' ? REPORT : fail(404, 404, 'Not found')));
  api.on('tokenSessionTraffic', () => traffic(0));
});

const renderDrawer = (token = DYNAMIC) =>
  renderAt('/proxy/isp/dynamic', <DetailDrawer token={token} onClose={() => {}} />);

describe("a proxy's sticky sessions in its detail", () => {
  it('shows the share that held their full time, early ends per reason and each session with its minutes', async () => {
    renderDrawer();
    const section = await screen.findByTestId('sticky-sessions');
    expect(within(section).getByText('Sticky sessions')).toBeTruthy();
    const share = await within(section).findByTestId('sticky-sessions-share');
    expect(share.textContent).toBe('96 % of 50 sessions held their full time');
    expect(within(section).getByTestId('sticky-sessions-ends').textContent).toBe(
      'Pool failed, moved to another exit: 1Idle longer than the pool keeps a session: 1',
    );
    const items = within(section).getAllByTestId('sticky-session');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Kept 8 of 10 minHeld'),
      expect.stringContaining('Kept 4.5 of 10 minPool failed, moved to another exit'),
      expect.stringContaining('Kept 12 of 60 minIdle longer than the pool keeps a session'),
    ]);
    expect(items[1].textContent).toContain('k3x9q2');
    const asked = api.requestsTo('tokenSessionHolds')[0].query;
    expect([asked.get('token_id'), asked.get('page'), asked.get('page_size')]).toEqual(['5', '1', '10']);
    // 50 sessions, 10 a page: the pager asks the server for the next page.
    fireEvent.click(within(section).getByTitle('2'));
    await waitFor(() => expect(api.requestsTo('tokenSessionHolds').at(-1)?.query.get('page')).toBe('2'));
  });

  it('explains what a sticky session is when there was none, with the way to make one', async () => {
    api.on('tokenSessionHolds', () => EMPTY);
    renderDrawer();
    const empty = await screen.findByTestId('sticky-sessions-empty');
    expect(empty.textContent).toContain('A sticky session keeps the same exit for the minutes you ask');
    const link = within(empty).getByRole('link', { name: 'Open the endpoint generator' });
    expect(link.getAttribute('href')).toBe('/proxy/endpoint-generator');
    expect(screen.queryByTestId('sticky-sessions-share')).toBeNull();
  });

  it('says so in place when the report cannot be loaded, and loads it again on retry', async () => {
    api.on('tokenSessionHolds', () => fail(500, 500, 'boom'));
    renderDrawer();
    const section = await screen.findByTestId('sticky-sessions');
    expect(await within(section).findByText('The sticky sessions could not be loaded')).toBeTruthy();
    api.on('tokenSessionHolds', () => REPORT);
    fireEvent.click(within(section).getByRole('button', { name: 'Retry' }));
    expect((await within(section).findByTestId('sticky-sessions-share')).textContent).toContain('96 %');
  });

  it('has no section for a static proxy (it keeps one exit) and asks for no report', async () => {
    renderDrawer(STATIC);
    await screen.findByText('Proxy #6');
    await waitFor(() => expect(api.requestsTo('tokenSessionTraffic')).toHaveLength(1));
    expect(screen.queryByTestId('sticky-sessions')).toBeNull();
    expect(api.requestsTo('tokenSessionHolds')).toHaveLength(0);
  });

  it('is in Chinese too', async () => {
    setLanguage('zh');
    renderDrawer();
    const section = await screen.findByTestId('sticky-sessions');
    expect(within(section).getByText('粘性会话')).toBeTruthy();
    expect((await within(section).findByTestId('sticky-sessions-share')).textContent).toBe(
      '50 个会话中 96 % 保持了完整时长',
    );
    expect(within(section).getByText('代理池故障，已切换到其他出口')).toBeTruthy();
    expect(within(section).getAllByTestId('sticky-session')[0].textContent).toContain('保持 8 / 10 分钟');
  });

  describe('on a phone (390 px)', () => {
    const wideMatchMedia = window.matchMedia;
    beforeEach(() => {
      window.matchMedia = matchMediaAtWidth(390);
    });
    afterEach(() => {
      window.matchMedia = wideMatchMedia;
    });

    it('lists the sessions as wrapping lines, no table and no fixed widths', async () => {
      renderDrawer();
      const section = await screen.findByTestId('sticky-sessions');
      const items = await within(section).findAllByTestId('sticky-session');
      expect(section.querySelector('table')).toBeNull();
      for (const element of section.querySelectorAll<HTMLElement>('[style]')) {
        expect(element.style.width).not.toMatch(/\d+px/);
        expect(element.style.minWidth).not.toMatch(/[1-9]\d*px/);
      }
      const lines = items[1].querySelectorAll<HTMLElement>('.ant-flex-wrap-wrap');
      expect(lines.length).toBe(2);
    });
  });
});

describe('bytes not charged in the detail', () => {
  it('says how many bytes were not charged since the proxy was bought, when some were', async () => {
    api.on('tokenSessionTraffic', () => traffic(1536));
    renderDrawer();
    expect((await screen.findByTestId('detail-not-charged')).textContent).toBe(
      'Not charged: 1.5 KB (lost before the target answered)',
    );
    const asked = api.requestsTo('tokenSessionTraffic')[0].query;
    expect([asked.get('token_id'), asked.get('from'), asked.get('granularity')]).toEqual([
      '5',
      '2026-01-01T00:00:00.000Z',
      'day',
    ]);
  });

  it('says nothing when every byte was charged', async () => {
    renderDrawer();
    await waitFor(() => expect(api.requestsTo('tokenSessionTraffic')).toHaveLength(1));
    await screen.findByTestId('sticky-sessions-share');
    expect(screen.queryByTestId('detail-not-charged')).toBeNull();
  });
});
