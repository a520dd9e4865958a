import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TSoftwareRelease } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { makeUser } from '../../../test/fixtures';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { matchMediaAtWidth } from '../../../test/screen-width';
import { setLanguage } from '../../../lib/i18n';
import { adminDownloadsRoutes } from '../routes';

const SHA = 'ab'.repeat(32);
const FOUND = 'cd'.repeat(32);

const RELEASE: TSoftwareRelease = {
  id: 7,
  version: '2.0.0',
  released_on: '2026-04-02',
  notes_zh: '全新界面。',
  notes_en: 'A new interface.',
  created_by: 1,
  created_at: '2026-04-02T08:00:00.000Z',
  files: [
    {
      id: 70,
      platform: 'windows',
      arch: 'x64',
      url: 'https://downloads.example.com/ProxyHub-2.0.0-x64.exe',
      size: 52_428_800,
      sha256: SHA,
      created_at: '2026-04-02T08:00:00.000Z',
    },
    {
      id: 71,
      platform: 'macos',
      arch: 'universal',
      url: 'https://downloads.example.com/ProxyHub-2.0.0.dmg',
      size: 2048,
      sha256: FOUND,
      created_at: '2026-04-02T08:00:00.000Z',
    },
  ],
};

let releases: TSoftwareRelease[] = [];

beforeEach(() => {
  releases = [RELEASE];
  api.on('userInfo', () => makeUser({ user_id: 1, email: 'ops@example.com', is_admin: true }));
  api.on('adminSoftwareReleaseList', () => releases);
});

const renderPage = () => renderAt('/admin/downloads', { featureRoutes: adminDownloadsRoutes });

function fillFirstFile(values: { url: string; size: string; sha256: string; arch?: string }) {
  const file = within(screen.getByTestId('release-file-0'));
  fireEvent.change(file.getByLabelText('Architecture (1)'), { target: { value: values.arch ?? 'x64' } });
  fireEvent.change(file.getByLabelText('Download link (1)'), { target: { value: values.url } });
  fireEvent.change(file.getByLabelText('Size in bytes (1)'), { target: { value: values.size } });
  fireEvent.change(file.getByLabelText('SHA-256 (1)'), { target: { value: values.sha256 } });
}

describe('software releases (operator area)', () => {
  it('lists the releases with their files: platform, arch, link, size and SHA-256', async () => {
    renderPage();
    const card = await screen.findByTestId('admin-release-2.0.0');
    expect(within(card).getByText('Latest')).toBeTruthy();
    expect(within(card).getByText('Released 2026-04-02')).toBeTruthy();
    expect(within(card).getByText('A new interface.')).toBeTruthy();
    expect(within(card).getByText('x64')).toBeTruthy();
    expect(within(card).getByText('50.0 MB')).toBeTruthy();
    expect(within(card).getByText('https://downloads.example.com/ProxyHub-2.0.0.dmg').getAttribute('href')).toBe(
      'https://downloads.example.com/ProxyHub-2.0.0.dmg',
    );
    expect(within(card).getByText(`${SHA.slice(0, 12)}…`)).toBeTruthy();
  });

  it('publishes a release with its file; the refusal of a file shows under the field it names', async () => {
    releases = [];
    let isRefused = true;
    api.on('adminSoftwareReleaseCreate', (req) => {
      if (isRefused)
        return fail(400, 7005, `The file at the link has SHA-256 ${FOUND}, not ${SHA} as given`, {
          error: 'SOFTWARE_FILE_MISMATCH',
          issues: [
            { path: 'files.0.sha256', message: `The file at the link has SHA-256 ${FOUND}, not ${SHA} as given` },
          ],
        });
      const body = req.json as { version: string; released_on: string };
      return { ...RELEASE, version: body.version, released_on: body.released_on };
    });
    renderPage();
    expect((await screen.findByTestId('releases-empty')).textContent).toContain('No release published yet');
    fireEvent.click(screen.getByTestId('release-new'));
    const form = within(await screen.findByTestId('release-form'));
    fireEvent.change(form.getByLabelText('Version'), { target: { value: '2.0.0' } });
    fireEvent.change(form.getByLabelText('Release notes (English)'), { target: { value: 'A new interface.' } });
    fillFirstFile({ url: 'https://downloads.example.com/ProxyHub-2.0.0-x64.exe', size: '5000', sha256: SHA });
    fireEvent.click(screen.getByTestId('release-save'));

    await waitFor(() =>
      expect(within(screen.getByTestId('release-file-0')).getByText(new RegExp(`has SHA-256 ${FOUND}`))).toBeTruthy(),
    );
    const sent = api.requestsTo('adminSoftwareReleaseCreate')[0].json as Record<string, unknown>;
    expect(sent).toMatchObject({
      version: '2.0.0',
      notes_zh: '',
      notes_en: 'A new interface.',
      files: [
        {
          platform: 'windows',
          arch: 'x64',
          url: 'https://downloads.example.com/ProxyHub-2.0.0-x64.exe',
          size: 5000,
          sha256: SHA,
        },
      ],
    });
    expect(sent.released_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Shown under the field, not toasted as well.
    await waitFor(() => expect(shownMessages('error')).toEqual([]));

    isRefused = false;
    fireEvent.click(screen.getByTestId('release-save'));
    await waitFor(() => expect(shownMessages('success')).toContain('Release 2.0.0 is published'));
  });

  it('checks the fields before asking the API', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('release-new'));
    await screen.findByTestId('release-form');
    fillFirstFile({ url: 'ftp://downloads.example.com/x.exe', size: '', sha256: 'xyz' });
    fireEvent.click(screen.getByTestId('release-save'));
    expect(
      await screen.findByText('Enter an http:// or https:// download link (no user name, password or #)'),
    ).toBeTruthy();
    expect(screen.getByText('The SHA-256 must be 64 hexadecimal characters')).toBeTruthy();
    expect(screen.getByText('The size must be a whole number of bytes from 1 to 8589934592')).toBeTruthy();
    expect(api.requestsTo('adminSoftwareReleaseCreate')).toHaveLength(0);
  });

  it('deletes a release after a confirmation, and removes a file after one', async () => {
    api.on('adminSoftwareReleaseDelete', () => ({ id: 7 }));
    api.on('adminSoftwareFileRemove', () => ({ ...RELEASE, files: RELEASE.files.slice(1) }));
    renderPage();
    // Cancelled once, confirmed the second time: one deletion only.
    fireEvent.click(await screen.findByTestId('delete-release-2.0.0'));
    fireEvent.click(within(await findModalWith('Delete release 2.0.0?')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Delete release 2.0.0?')).toBeNull());
    fireEvent.click(screen.getByTestId('delete-release-2.0.0'));
    const confirm = await findModalWith('Delete release 2.0.0?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(shownMessages('success')).toContain('Release 2.0.0 is deleted'));
    expect(api.requestsTo('adminSoftwareReleaseDelete')).toHaveLength(1);
    expect(api.requestsTo('adminSoftwareReleaseDelete')[0].path).toContain('/admin/downloads/releases/7');

    fireEvent.click(screen.getByTestId('remove-file-70'));
    const remove = await findModalWith('Remove the Windows file of 2.0.0?');
    fireEvent.click(within(remove).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(api.requestsTo('adminSoftwareFileRemove')).toHaveLength(1));
    expect(api.requestsTo('adminSoftwareFileRemove')[0].path).toContain('/admin/downloads/releases/7/files/70');
  });

  it('adds a file to a release; a link that cannot be fetched is shown under the link', async () => {
    api.on('adminSoftwareFileAdd', () =>
      fail(400, 7006, 'The file at the link could not be fetched: the server answered HTTP 404', {
        error: 'SOFTWARE_FILE_UNREACHABLE',
        issues: [{ path: 'url', message: 'The file at the link could not be fetched: the server answered HTTP 404' }],
      }),
    );
    renderPage();
    const card = within(await screen.findByTestId('admin-release-2.0.0'));
    fireEvent.click(card.getByRole('button', { name: /Add a file/ }));
    const form = within(await screen.findByTestId('add-file-form'));
    fireEvent.change(form.getByLabelText('Architecture'), { target: { value: 'arm64' } });
    fireEvent.change(form.getByLabelText('Download link'), {
      target: { value: 'https://downloads.example.com/a.exe' },
    });
    fireEvent.change(form.getByLabelText('Size in bytes'), { target: { value: '4096' } });
    fireEvent.change(form.getByLabelText('SHA-256'), { target: { value: SHA } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a file' }));
    expect(
      await form.findByText('The file at the link could not be fetched: the server answered HTTP 404'),
    ).toBeTruthy();
    expect(api.requestsTo('adminSoftwareFileAdd')[0]).toMatchObject({
      path: '/admin/downloads/releases/7/files',
      json: {
        id: 7,
        platform: 'windows',
        arch: 'arm64',
        url: 'https://downloads.example.com/a.exe',
        size: 4096,
        sha256: SHA,
      },
    });
  });

  describe('on a phone (390 px)', () => {
    const wideMatchMedia = window.matchMedia;
    beforeEach(() => {
      window.matchMedia = matchMediaAtWidth(390);
    });
    afterEach(() => {
      window.matchMedia = wideMatchMedia;
    });

    it('opens the publish form across the whole screen, its fields one under the other; the file tables scroll inside', async () => {
      renderPage();
      const card = await screen.findByTestId('admin-release-2.0.0');
      expect(card.querySelector('.ant-table-content')?.getAttribute('style') ?? '').toContain('overflow');
      fireEvent.click(screen.getByTestId('release-new'));
      const form = await screen.findByTestId('release-form');
      const drawer = form.closest('.ant-drawer-content-wrapper') as HTMLElement;
      expect(drawer.style.width).toBe('100%');
      // Full-width columns below antd's sm breakpoint: the version and the date, the link and the SHA-256 stack.
      const column = (label: string) => within(form).getByLabelText(label).closest('[class*="ant-col-xs-"]')!;
      expect(column('Version').className).toContain('ant-col-xs-24');
      expect(column('Download link (1)').className).toContain('ant-col-xs-24');
      expect(column('SHA-256 (1)').className).toContain('ant-col-xs-24');
    });
  });

  it('is in Chinese too', async () => {
    setLanguage('zh');
    renderPage();
    const card = await screen.findByTestId('admin-release-2.0.0');
    expect(within(card).getByText('发布于 2026-04-02')).toBeTruthy();
    expect(screen.getByText('发布新版本')).toBeTruthy();
    expect(within(card).getByText('全新界面。')).toBeTruthy();
  });
});
