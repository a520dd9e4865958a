import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setLanguage } from '../../lib/i18n';
import { fail } from '../../test/api-stub';
import { api, shownMessages } from '../../test/harness';
import { renderAt } from '../../test/render';
import { AccountTargetRulesCard, TokenTargetRules } from './target-rules-panels';

const SAVED_AT = '2026-01-01T00:00:00.000Z';

function typeRules(value: string, name: RegExp | string = 'Rules, one per line') {
  fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });
}

describe('target rules editor', { timeout: 60_000 }, () => {
  it('names each wrong line as the user types, and sends nothing while one is wrong', async () => {
    api.on('userTargetRules', () => null);
    renderAt('/security', <AccountTargetRulesCard />);
    await screen.findByRole('textbox', { name: 'Rules, one per line' });
    typeRules('example.com\nbad rule\n\n10.0.0.0/33\nEXAMPLE.com.');
    const problems = await screen.findByTestId('target-rules-account-problems');
    expect(within(problems).getByText(/^Line 2: Not a valid domain, IP address or CIDR block/)).toBeTruthy();
    expect(within(problems).getByText('Line 4: Invalid CIDR prefix: 0-32 for IPv4, 0-128 for IPv6')).toBeTruthy();
    expect(within(problems).getByText('Line 5: This rule repeats an earlier one')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save rules' }).hasAttribute('disabled')).toBe(true);
    typeRules('example.com\n\n*.ads.example.net\n2001:db8::/32');
    await waitFor(() => expect(screen.queryByTestId('target-rules-account-problems')).toBeNull());
    expect(screen.getByText('3 of at most 200 rules')).toBeTruthy();
    // An allow list needs a rule.
    fireEvent.click(screen.getByText('Allow list'));
    typeRules('  ');
    expect(await screen.findByText('An allow list needs at least one rule')).toBeTruthy();
    expect(api.requestsTo('userTargetRulesSet')).toHaveLength(0);
  });

  it('says it in Chinese too', async () => {
    act(() => setLanguage('zh'));
    api.on('userTargetRules', () => null);
    renderAt('/security', <AccountTargetRulesCard />);
    await screen.findByRole('textbox', { name: '规则，每行一条' });
    typeRules('ok.example\n10.0.0.1-10.0.0.9', '规则，每行一条');
    expect(await screen.findByText('第 2 行：不支持 IP 范围，请改写为 CIDR 网段')).toBeTruthy();
  });

  it("saves the account's list line by line, and shows the server's refusals on their lines", async () => {
    let calls = 0;
    api.on('userTargetRules', () =>
      calls === 0 ? null : { mode: 'allow' as const, rules: ['example.com', '203.0.113.0/24'], updated_at: SAVED_AT },
    );
    api.on('userTargetRulesSet', (req) => {
      calls += 1;
      const body = req.json as { mode: 'deny' | 'allow'; rules: string[] };
      if (body.rules.includes('refused.example')) {
        return fail(400, 400, 'rules.0: refused by the server', {
          error: 'BAD_REQUEST',
          issues: [{ path: 'rules.0', message: 'refused by the server' }],
        });
      }
      return { mode: body.mode, rules: ['example.com', '203.0.113.0/24'], updated_at: SAVED_AT };
    });
    renderAt('/security', <AccountTargetRulesCard />);
    await screen.findByRole('textbox', { name: 'Rules, one per line' });
    typeRules('refused.example');
    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    expect(await screen.findByText('Line 1: refused by the server')).toBeTruthy();
    // Shown on its line, not toasted as well.
    expect(shownMessages('error')).toEqual([]);

    fireEvent.click(screen.getByText('Allow list'));
    typeRules('Example.com\n203.0.113.9/24');
    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    await waitFor(() =>
      expect(shownMessages('success')).toContain('Target rules saved; they apply to new connections at once'),
    );
    expect(api.requestsTo('userTargetRulesSet').at(-1)!.json).toEqual({
      mode: 'allow',
      rules: ['Example.com', '203.0.113.9/24'],
    });
    // The stored (canonical) list comes back into the editor.
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Rules, one per line' }) as HTMLTextAreaElement).value).toBe(
        'example.com\n203.0.113.0/24',
      ),
    );
    expect(screen.getByRole('button', { name: 'Remove list' })).toBeTruthy();
  });

  it("a proxy's section says which list applies, and saves the proxy's own list", async () => {
    let own: { mode: 'deny' | 'allow'; rules: string[]; updated_at: string } | null = null;
    const account = { mode: 'deny' as const, rules: ['ads.example'], updated_at: SAVED_AT };
    api.on('tokenTargetRules', () => ({
      token_id: 7,
      own,
      account,
      applies: own ? ('own' as const) : ('account' as const),
    }));
    api.on('tokenTargetRulesSet', (req) => {
      const body = req.json as { mode: 'deny' | 'allow'; rules: string[] };
      own = {
        mode: body.mode,
        rules: body.rules.filter((r) => r.trim() !== ''),
        updated_at: '2026-01-02T00:00:00.000Z',
      };
      return { token_id: 7, own, account, applies: 'own' as const };
    });
    renderAt('/proxies', <TokenTargetRules tokenId={7} />);
    expect(
      await screen.findByText(
        "This proxy follows the account's Deny list (rules: 1). Saving a list here replaces it for this proxy only.",
      ),
    ).toBeTruthy();
    typeRules('[::1]');
    expect(await screen.findByText(/^Line 1: Not a valid domain/)).toBeTruthy();
    typeRules('10.0.0.0/8');
    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    expect(
      await screen.findByText("This proxy follows its own list below; the account's list does not apply to it."),
    ).toBeTruthy();
    const [sent] = api.requestsTo('tokenTargetRulesSet');
    expect(sent.path).toBe('/token/target-rules/7');
    expect(sent.json).toEqual({ token_id: 7, mode: 'deny', rules: ['10.0.0.0/8'] });
  });
});
