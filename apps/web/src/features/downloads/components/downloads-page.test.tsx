import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TSoftwareList } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeUser, makeSiteSettings } from '../../../test/fixtures';
import { api, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { formatFileSize as formatBytes } from '../../../lib/format';
import { setLanguage } from '../../../lib/i18n';
import { queryClient } from '../../../lib/query-client';
import { writeRecord } from '../../../lib/storage';
import { downloadsRoutes } from '../routes';

const LIST: TSoftwareList = {
  status: 'ok',
  name: 'ProxyHub Desktop',
  releases: [
    {
      version: '1.2.0',
      date: '2026-03-20',
      notes: 'Adds automatic updates.',
      files: [
        {
          platform: 'windows',
          arch: 'x64',
          file: 'ProxyHub-1.2.0-x64.exe',
          size: 52_428_800,
          sha256: 'ab'.repeat(32),
          is_available: true,
          url: null,
        },
        {
          platform: 'linux',
          arch: null,
          file: 'ProxyHub-1.2.0.AppImage',
          size: null,
          sha256: null,
          is_available: false,
          url: null,
        },
      ],
    },
    {
      version: '1.1.0',
      date: '2026-01-10',
      notes: '',
      files: [
        {
          platform: 'macos',
          arch: 'universal',
          file: 'ProxyHub-1.1.0.dmg',
          size: 2048,
          sha256: 'cd'.repeat(32),
          is_available: true,
          url: null,
        },
      ],
    },
  ],
};

let totalBalance = 10;

beforeEach(() => {
  totalBalance = 10;
  writeRecord('local', 'NOTICE_HIDDEN', 0);
  api.on('userInfo', () => makeUser({ total_balance: totalBalance }));
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('siteSettings', () => makeSiteSettings());
  api.on('siteNotice', () => null);
  api.on('softwareList', () => LIST);
});

function renderSoftware() {
  return renderAt('/tools/software', { featureRoutes: downloadsRoutes });
}

describe('software download page', () => {
  it('tells a user without the role why (top up more than 1 yuan) and links to /charge; no list is asked for', async () => {
    totalBalance = 1;
    renderSoftware();
    const reason = await screen.findByTestId('software-refusal');
    expect(reason.textContent).toContain('exceed 1 yuan');
    expect(reason.textContent).toContain('¥1.00');
    expect(screen.getByText('Top up').closest('a')?.getAttribute('href')).toBe('/charge');
    expect(api.requestsTo('softwareList')).toHaveLength(0);
    expect(within(screen.getByTestId('sidebar')).queryByText('Software download')).toBeNull();
  });

  it('says it in Chinese too', async () => {
    setLanguage('zh');
    totalBalance = 0;
    renderSoftware();
    expect((await screen.findByTestId('software-refusal')).textContent).toContain(
      '累计充值超过 1 元后即可下载桌面客户端',
    );
    expect(screen.getByText('去充值')).toBeTruthy();
  });

  it('lists versions, platforms, sizes, SHA-256 checksums and notes for a user with the role', async () => {
    renderSoftware();
    const latest = await screen.findByTestId('release-1.2.0');
    expect(within(latest).getByText('ProxyHub Desktop 1.2.0')).toBeTruthy();
    expect(within(latest).getByText('Latest')).toBeTruthy();
    expect(within(latest).getByText('Released 2026-03-20')).toBeTruthy();
    expect(within(latest).getByText('Adds automatic updates.')).toBeTruthy();
    expect(within(latest).getByText('50.0 MB')).toBeTruthy();
    expect(within(latest).getByTestId('sha256-ProxyHub-1.2.0-x64.exe').textContent).toBe('ab'.repeat(32));
    expect(within(latest).getByText('Not available yet')).toBeTruthy();
    const older = screen.getByTestId('release-1.1.0');
    expect(within(older).getByText('macOS')).toBeTruthy();
    expect(within(older).getByText('2.0 KB')).toBeTruthy();
    expect(within(screen.getByTestId('sidebar')).getByText('Software download')).toBeTruthy();
  });

  it('asks for a link and downloads through it; a refusal is toasted with its reason', async () => {
    api.on('softwareLink', (req) => {
      const { file } = req.json as { file: string };
      return file === 'ProxyHub-1.1.0.dmg'
        ? fail(404, 7003, 'This download is not available right now; please try again later or contact support')
        : { url: `/api/tools/software/file/${file}?ticket=t`, expires_at: '2026-03-20T01:00:00.000Z' };
    });
    const clicked: string[] = [];
    const original = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    };
    try {
      renderSoftware();
      fireEvent.click(await screen.findByTestId('download-ProxyHub-1.2.0-x64.exe'));
      await waitFor(() => expect(clicked).toEqual(['/api/tools/software/file/ProxyHub-1.2.0-x64.exe?ticket=t']));
      expect(api.requestsTo('softwareLink')[0].json).toEqual({ file: 'ProxyHub-1.2.0-x64.exe' });
      fireEvent.click(screen.getByTestId('download-ProxyHub-1.1.0.dmg'));
      await waitFor(() =>
        expect(shownMessages('error')).toEqual([
          'Download failed: This download is not available right now; please try again later or contact support',
        ]),
      );
      expect(clicked).toHaveLength(1);
    } finally {
      HTMLAnchorElement.prototype.click = original;
    }
  });

  it("shows the operator's published releases with their links: a download opens the link itself", async () => {
    const url = 'https://downloads.example.com/releases/ProxyHub-2.0.0-arm64.dmg';
    api.on('softwareList', () => ({
      status: 'ok' as const,
      name: null,
      releases: [
        {
          version: '2.0.0',
          date: '2026-04-02',
          notes: 'A new interface.',
          files: [
            {
              platform: 'macos' as const,
              arch: 'arm64',
              file: 'ProxyHub-2.0.0-arm64.dmg',
              size: 3 * 1024 * 1024,
              sha256: 'ef'.repeat(32),
              is_available: true,
              url,
            },
          ],
        },
      ],
    }));
    renderSoftware();
    const release = await screen.findByTestId('release-2.0.0');
    expect(within(release).getByText('Desktop software 2.0.0')).toBeTruthy();
    expect(within(release).getByText('arm64')).toBeTruthy();
    expect(within(release).getByText('3.0 MB')).toBeTruthy();
    expect(within(release).getByTestId('sha256-ProxyHub-2.0.0-arm64.dmg').textContent).toBe('ef'.repeat(32));
    const link = within(release).getByTestId('download-ProxyHub-2.0.0-arm64.dmg');
    expect(link.tagName).toBe('A');
    expect(link.getAttribute('href')).toBe(url);
    expect(link.getAttribute('target')).toBe('_blank');
    fireEvent.click(link);
    expect(api.requestsTo('softwareLink')).toHaveLength(0);
  });

  it('says so when nothing is published or the manifest is unreadable', async () => {
    api.on('softwareList', () => ({ status: 'not_published' as const, name: null, releases: [] }));
    const view = renderSoftware();
    expect((await screen.findByTestId('software-empty')).textContent).toBe(
      'The desktop software has not been published yet. Please check back later.',
    );
    view.unmount();
    queryClient.clear();
    api.on('softwareList', () => ({ status: 'invalid_manifest' as const, name: null, releases: [] }));
    renderSoftware();
    expect(await screen.findByText('The downloads are being updated. Please check back later.')).toBeTruthy();
  });

  it("shows the refusal when the server says the role is missing (the user's info was stale)", async () => {
    api.on('softwareList', () =>
      fail(403, 7001, 'Software downloads open once you have topped up more than 1 yuan in total; please top up first'),
    );
    renderSoftware();
    expect(await screen.findByTestId('software-refusal')).toBeTruthy();
  });

  it('formats sizes', () => {
    expect([formatBytes(0), formatBytes(1023), formatBytes(1536), formatBytes(5 * 1024 ** 3)]).toEqual([
      '0 B',
      '1023 B',
      '1.5 KB',
      '5.0 GB',
    ]);
  });
});
