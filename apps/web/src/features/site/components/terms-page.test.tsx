import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { TSiteTerms } from '@proxy/contract';
import { fail } from '../../../test/api-stub';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { setLanguage } from '../../../lib/i18n';
import TermsPage from './terms-page';
import { renderMarkdown } from './markdown';

beforeEach(() => {
  api.on('siteTerms', (req): TSiteTerms =>
    req.headers.lang === 'zh'
      ? { lang: 'zh', markdown: '# 服务条款\n\n- **充值不可退款。**\n', source: 'default', updated_at: null }
      : {
          lang: 'en',
          markdown: '# Terms of Service\n\n- **Recharges are non-refundable.**\n',
          source: 'custom',
          updated_at: '2026-03-01T08:00:00.000Z',
        },
  );
});

describe('terms of service page', () => {
  it('renders the markdown of the interface language', async () => {
    renderAt('/terms', <TermsPage />);
    const text = await screen.findByTestId('terms-text');
    expect(text.querySelector('h1')?.textContent).toBe('Terms of Service');
    expect(text.querySelector('li strong')?.textContent).toBe('Recharges are non-refundable.');
    expect(screen.getByText(/Last updated/)).toBeTruthy();
  });

  it('asks for the Chinese text in Chinese', async () => {
    setLanguage('zh');
    renderAt('/terms', <TermsPage />);
    await waitFor(() => expect(screen.getByTestId('terms-text').querySelector('h1')?.textContent).toBe('服务条款'));
    expect(api.requestsTo('siteTerms')[0].headers.lang).toBe('zh');
  });

  it('offers a retry when the terms cannot be loaded', async () => {
    api.on('siteTerms', () => fail(500, 500, 'Server error'));
    renderAt('/terms', <TermsPage />);
    expect(await screen.findByText('The terms of service could not be loaded')).toBeTruthy();
  });

  it('escapes raw HTML and refuses script links in the operator text', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img');
    expect(html).not.toContain('href="javascript:');
  });
});
