import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TDomainUsage } from '@proxy/contract';
import { fail, raw } from '../../../test/api-stub';
import { makeToken } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { DetailDrawer } from './detail-drawer';
import { ProxyDomainsSection } from './proxy-domains';

const DAY_MS = 24 * 60 * 60 * 1000;
const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (n: number) => new Date(Date.parse(`${today()}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

const USAGE: TDomainUsage = {
  token_id: 5,
  from: '2026-04-04',
  to: '2026-04-10',
  enabled: true,
  total_bytes: 3000,
  total_connections: 6,
  domains: [
    { domain: 'example.co.uk', bytes: 2000, connections: 4, share: 0.6667 },
    { domain: '203.0.113.9', bytes: 900, connections: 1, share: 0.3 },
  ],
  other: { bytes: 100, connections: 1, share: 0.0333 },
};

beforeEach(() => {
  api.on('tokenSessionDomains', () => USAGE);
  api.on('tokenSessionDomainsExport', () =>
    raw('from_utc_day,to_utc_day,proxy_id,domain,bytes,connections,share\r\n', {
      headers: { 'content-type': 'text/csv; charset=utf-8' },
    }),
  );
});

const domainRequests = () => api.requests.filter((r) => r.route === 'tokenSessionDomains');

describe("a proxy's domains section", { timeout: 60_000 }, () => {
  it("shows the proxy's domains, switches the period in UTC days and exports the CSV of that period", async () => {
    renderAt('/', <ProxyDomainsSection tokenId={5} />);
    const section = await screen.findByTestId('proxy-domains');
    expect(within(section).getByText('Domains')).toBeTruthy();
    await waitFor(() => expect(section.textContent).toContain('example.co.uk'));
    expect(section.textContent).toContain('203.0.113.9');
    expect(section.textContent).toContain('66.7 %');
    expect(section.textContent).toContain('Other domains');
    expect(domainRequests()[0].query.get('token_id')).toBe('5');
    expect(domainRequests()[0].query.get('from')).toBe(daysBefore(6));

    fireEvent.click(within(section).getByText('30 days'));
    await waitFor(() => expect(domainRequests()).toHaveLength(2));
    expect([domainRequests()[1].query.get('from'), domainRequests()[1].query.get('to')]).toEqual([
      daysBefore(29),
      today(),
    ]);

    fireEvent.click(within(section).getByRole('button', { name: /CSV/ }));
    await waitFor(() => expect(api.requests.some((r) => r.route === 'tokenSessionDomainsExport')).toBe(true));
    const exported = api.requests.find((r) => r.route === 'tokenSessionDomainsExport')!;
    expect([exported.query.get('token_id'), exported.query.get('from')]).toEqual(['5', daysBefore(29)]);
  });

  it('shows a failure in place with a retry, and an export failure as a message', async () => {
    let failing = true;
    api.on('tokenSessionDomains', () => (failing ? fail(500, 500, 'boom') : USAGE));
    renderAt('/', <ProxyDomainsSection tokenId={5} />);
    const section = await screen.findByTestId('proxy-domains');
    const retry = await within(section).findByRole('button', { name: /Retry/ });
    expect(section.textContent).toContain('Could not load the usage by domain');
    failing = false;
    fireEvent.click(retry);
    await waitFor(() => expect(section.textContent).toContain('example.co.uk'));

    api.on('tokenSessionDomainsExport', () => fail(500, 500, 'boom'));
    fireEvent.click(within(section).getByRole('button', { name: /CSV/ }));
    await waitFor(() => expect(shownMessages('error')).toContain('Export failed'));
  });

  it("is part of the proxy's detail drawer", async () => {
    renderAt('/', <DetailDrawer token={makeToken({ token_id: 5 })} onClose={() => {}} />);
    const section = await screen.findByTestId('proxy-domains');
    await waitFor(() => expect(section.textContent).toContain('example.co.uk'));
  });
});
