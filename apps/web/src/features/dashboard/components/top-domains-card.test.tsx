import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TDomainUsage } from '@proxy/contract';
import { setLanguage } from '../../../lib/i18n';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { matchMediaAtWidth } from '../../../test/screen-width';
import DomainsPage from './domains-page';
import { TopDomainsCard } from './top-domains-card';

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);

// Twelve domains, 1200 down to 100 bytes, and 300 bytes of "other": 8100 bytes in all.
function usage(overrides: Partial<TDomainUsage> = {}): TDomainUsage {
  const domains = Array.from({ length: 12 }, (_, i) => ({
    domain: `site${i + 1}.example.com`,
    bytes: (12 - i) * 100,
    connections: 12 - i,
    share: ((12 - i) * 100) / 8100,
  }));
  return {
    token_id: null,
    from: '2026-04-04',
    to: '2026-04-10',
    enabled: true,
    total_bytes: 8100,
    total_connections: 80,
    domains,
    other: { bytes: 300, connections: 2, share: 300 / 8100 },
    ...overrides,
  };
}

let answer: TDomainUsage;
beforeEach(() => {
  answer = usage();
  api.on('tokenSessionDomains', () => answer);
});

const card = async () => screen.findByTestId('top-domains-card');
const rowTexts = (box: HTMLElement) =>
  [...box.querySelectorAll('tbody tr')].map((row) => row.querySelector('td')?.textContent ?? '');

describe('top domains card', { timeout: 60_000 }, () => {
  it("lists the account's 10 domains with most traffic over the last 7 UTC days, the rest as other, and links to all", async () => {
    renderAt('/', <TopDomainsCard />);
    const box = await card();
    await waitFor(() => expect(rowTexts(box)).toHaveLength(11));
    expect(rowTexts(box).slice(0, 2)).toEqual(['site1.example.com', 'site2.example.com']);
    expect(rowTexts(box)[9]).toBe('site10.example.com');
    // site11 (200 B) and site12 (100 B) join the 300 B of other: 600 B, 7.4 %.
    const other = box.querySelectorAll('tbody tr')[10] as HTMLElement;
    expect(other.textContent).toContain('Other domains');
    expect(other.textContent).toContain('600 B');
    expect(other.textContent).toContain('7.4 %');
    expect(within(box).getByTestId('domain-usage-total').textContent).toBe(
      '7.91 KB in total, UTC days 2026-04-04 to 2026-04-10',
    );

    const [request] = api.requests.filter((r) => r.route === 'tokenSessionDomains');
    expect(request.query.has('token_id')).toBe(false);
    const today = new Date().toISOString().slice(0, 10);
    expect([request.query.get('from'), request.query.get('to')]).toEqual([
      utcDay(Date.parse(`${today}T00:00:00Z`) - 6 * DAY_MS),
      today,
    ]);
    expect(within(box).getByTestId('top-domains-more').getAttribute('href')).toBe('/usage/domains');
  });

  const nothing = { domains: [], other: { bytes: 0, connections: 0, share: 0 }, total_bytes: 0, total_connections: 0 };

  it('says when there is no traffic yet', async () => {
    answer = usage(nothing);
    renderAt('/', <TopDomainsCard />);
    expect((await within(await card()).findByTestId('domain-usage-empty')).textContent).toContain(
      'No traffic to any domain in these days yet',
    );
  });

  it('says when recording is off, with a link to the setting', async () => {
    answer = usage({ ...nothing, enabled: false });
    renderAt('/', <TopDomainsCard />);
    const off = await within(await card()).findByTestId('domain-usage-off');
    expect(off.textContent).toContain('Usage by target domain is off');
    expect(within(off).getByTestId('domain-usage-setting-link').getAttribute('href')).toBe(
      '/user-center#usage-settings',
    );
  });

  it('keeps past figures while recording is off, saying so', async () => {
    answer = usage({ enabled: false });
    renderAt('/', <TopDomainsCard />);
    const notice = await within(await card()).findByTestId('domain-usage-off-notice');
    expect(notice.textContent).toContain('Days recorded before stay here');
    expect(rowTexts(await card())).toHaveLength(11);
  });

  it('opens the full list with its period switch from the link', async () => {
    const { router } = renderAt('/', [
      { path: '/', element: <TopDomainsCard /> },
      { path: '/usage/domains', element: <DomainsPage /> },
    ]);
    fireEvent.click(await screen.findByTestId('top-domains-more'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/usage/domains'));
    const panel = await screen.findByTestId('domain-usage-panel');
    await waitFor(() => expect(rowTexts(panel)).toHaveLength(13));
  });

  it('is translated into Chinese', async () => {
    await act(() => setLanguage('zh'));
    renderAt('/', <TopDomainsCard />);
    const box = await card();
    expect(within(box).getByText('热门域名')).toBeTruthy();
    await waitFor(() => expect(box.textContent).toContain('其他域名'));
    expect(within(box).getByTestId('domain-usage-total').textContent).toContain('UTC 日期 2026-04-04 至 2026-04-10');
  });

  describe('on a phone (390 px)', () => {
    const wideMatchMedia = window.matchMedia;
    beforeEach(() => {
      window.matchMedia = matchMediaAtWidth(390);
    });
    afterEach(() => {
      window.matchMedia = wideMatchMedia;
    });

    it('shows domain, traffic and share, leaving the connections out', async () => {
      renderAt('/', <TopDomainsCard />);
      const box = await card();
      await waitFor(() => expect(rowTexts(box)).toHaveLength(11));
      const headers = [...box.querySelectorAll('thead th')].map((th) => th.textContent);
      expect(headers).toEqual(['Domain', 'Traffic', 'Share']);
    });
  });
});
