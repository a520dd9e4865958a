import { describe, expect, it } from 'vitest';
import { validationMessage } from './messages';
import {
  compileTargetRules,
  isTargetRuleError,
  parseTargetRule,
  parseTargetRules,
  splitTargetRuleLines,
  TARGET_RULE_REASON_MESSAGES,
  TARGET_RULES_MAX,
  ZTargetRulesBody,
  ZTokenTargetRulesBody,
} from './target-rules';

function text(input: string): string {
  const r = parseTargetRule(input);
  if (isTargetRuleError(r)) throw new Error(`expected ${input} to parse, got ${r.reason}`);
  return r.text;
}
function reason(input: string): string {
  const r = parseTargetRule(input);
  return isTargetRuleError(r) ? r.reason : 'ok';
}

describe('target rules: parsing', () => {
  it('reads domains in canonical form: lower case, no trailing dot, IDN as punycode', () => {
    expect(text(' Example.COM. ')).toBe('example.com');
    expect(text('a-b.example.co.uk')).toBe('a-b.example.co.uk');
    expect(text('_dmarc.example.com')).toBe('_dmarc.example.com');
    expect(text('bücher.example')).toBe('xn--bcher-kva.example');
    expect(text('intranet')).toBe('intranet');
  });

  it('reads "*." as subdomains only', () => {
    expect(parseTargetRule('*.Ads.Example.net')).toMatchObject({
      kind: 'domain',
      text: '*.ads.example.net',
      name: 'ads.example.net',
      isSubdomainsOnly: true,
    });
    expect(parseTargetRule('example.net')).toMatchObject({ kind: 'domain', isSubdomainsOnly: false });
  });

  it('reads IPv4 and IPv6 addresses and CIDR blocks, with their prefix', () => {
    expect(text('203.0.113.7')).toBe('203.0.113.7/32');
    expect(text('203.0.113.9/24')).toBe('203.0.113.0/24');
    expect(text('0.0.0.0/0')).toBe('0.0.0.0/0');
    expect(text('2001:DB8::1')).toBe('2001:db8::1/128');
    expect(text('2001:db8:0:0:1::/32')).toBe('2001:db8::/32');
    expect(text('::ffff:10.0.0.1')).toBe('10.0.0.1/32');
    expect(parseTargetRule('2001:db8::/48')).toMatchObject({ kind: 'cidr', family: 6 });
  });

  it('refuses what is neither a domain nor an address, with the reason', () => {
    for (const bad of [
      '',
      '*',
      '*.',
      'exa mple.com',
      'http://example.com',
      'example.com/path',
      'a..b',
      '-a.com',
      'a-.com',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '01.2.3.4',
      'a'.repeat(64) + '.com',
      '*.*.example.com',
      'ex*ample.com',
      'fe80::1%eth0',
      `${'a.'.repeat(127)}com`,
    ]) {
      expect(reason(bad), bad).toBe('format');
    }
    expect(reason('10.0.0.0/33')).toBe('prefix');
    expect(reason('2001:db8::/129')).toBe('prefix');
    expect(reason('10.0.0.1-10.0.0.9')).toBe('range');
    expect(reason('10.0.0.9-10.0.0.1')).toBe('range');
  });

  it('parses a list line by line: blank lines skipped, errors by line, duplicates after normalisation', () => {
    const lines = splitTargetRuleLines(
      'example.com\r\n\n EXAMPLE.com.\n10.0.0.1/8\n10.0.0.0/8\nnot a rule\n2001:db8::/32',
    );
    const { rules, errors } = parseTargetRules(lines);
    expect(rules.map((r) => r.text)).toEqual(['example.com', '10.0.0.0/8', '2001:db8::/32']);
    expect(errors).toEqual([
      { index: 2, input: ' EXAMPLE.com.', reason: 'duplicate' },
      { index: 4, input: '10.0.0.0/8', reason: 'duplicate' },
      { index: 5, input: 'not a rule', reason: 'format' },
    ]);
  });

  it(`holds at most ${TARGET_RULES_MAX} rules`, () => {
    const lines = Array.from({ length: TARGET_RULES_MAX + 2 }, (_, i) => `h${i}.example.com`);
    expect(parseTargetRules(lines.slice(0, TARGET_RULES_MAX)).errors).toEqual([]);
    const { errors } = parseTargetRules(['', ...lines]);
    expect(errors.map((e) => [e.index, e.reason])).toEqual([
      [TARGET_RULES_MAX + 1, 'too-many'],
      [TARGET_RULES_MAX + 2, 'too-many'],
    ]);
  });

  it('has a zh and en message for every reason', () => {
    for (const key of Object.values(TARGET_RULE_REASON_MESSAGES)) {
      expect(validationMessage(key, 'zh')).not.toBe(key);
      expect(validationMessage(key, 'en')).not.toBe(key);
    }
  });
});

describe('target rules: the body schema', () => {
  it('puts each bad line at rules.<index>, and needs a rule in an allow list', () => {
    const bad = ZTargetRulesBody.safeParse({ mode: 'deny', rules: ['ok.example', 'bad rule', '10.0.0.0/40'] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['rules.1', 'targetRuleFormat'],
      ['rules.2', 'targetRulePrefix'],
    ]);
    const empty = ZTargetRulesBody.safeParse({ mode: 'allow', rules: ['', ' '] });
    expect(empty.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['rules', 'targetRulesAllowEmpty']]);
    expect(ZTargetRulesBody.safeParse({ mode: 'deny', rules: [] }).success).toBe(true);
    expect(ZTargetRulesBody.safeParse({ mode: 'block', rules: [] }).error!.issues[0].message).toBe(
      'targetRuleModeInvalid',
    );
    expect(ZTargetRulesBody.safeParse({ mode: 'deny', rules: 'example.com' }).success).toBe(false);
    expect(ZTargetRulesBody.safeParse({ mode: 'deny', rules: [1] }).success).toBe(false);
    expect(ZTargetRulesBody.safeParse({ mode: 'deny', rules: ['x'.repeat(300)] }).error!.issues[0].message).toBe(
      'tooLong',
    );
    expect(
      ZTokenTargetRulesBody.safeParse({ token_id: '7', mode: 'deny', rules: ['bad rule'] }).error!.issues[0].path,
    ).toEqual(['rules', 0]);
    expect(ZTokenTargetRulesBody.parse({ token_id: '7', mode: 'allow', rules: ['example.com'] })).toEqual({
      token_id: 7,
      mode: 'allow',
      rules: ['example.com'],
    });
  });
});

describe('target rules: the compiled matcher', () => {
  const deny = compileTargetRules({
    mode: 'deny',
    rules: ['example.com', '*.ads.example.net', '203.0.113.0/24', '10.1.2.3/32', '2001:db8::/32'],
  });

  it('deny: a name and its subdomains, subdomains only for "*.", then the address', () => {
    expect(deny.decideName('example.com')).toBe('blocked');
    expect(deny.decideName('WWW.Example.com.')).toBe('blocked');
    expect(deny.decideName('a.b.example.com')).toBe('blocked');
    expect(deny.decideName('notexample.com')).toBe('by-address');
    expect(deny.decideName('example.com.evil.org')).toBe('by-address');
    expect(deny.decideName('ads.example.net')).toBe('by-address');
    expect(deny.decideName('x.ads.example.net')).toBe('blocked');
    expect(deny.decideAddress('203.0.113.255')).toBe('blocked');
    expect(deny.decideAddress('203.0.114.0')).toBe('allowed');
    expect(deny.decideAddress('10.1.2.3')).toBe('blocked');
    expect(deny.decideAddress('10.1.2.4')).toBe('allowed');
    expect(deny.decideAddress('2001:db8:ffff::1')).toBe('blocked');
    expect(deny.decideAddress('[2001:db8::1]')).toBe('blocked');
    expect(deny.decideAddress('2001:db9::1')).toBe('allowed');
    expect(deny.decideAddress('::ffff:203.0.113.1')).toBe('blocked');
  });

  it('deny with names only decides by the name', () => {
    const names = compileTargetRules({ mode: 'deny', rules: ['example.com'] });
    expect(names.decideName('other.org')).toBe('allowed');
  });

  it('allow: only listed names, or names whose address is listed', () => {
    const allow = compileTargetRules({ mode: 'allow', rules: ['example.com', '198.51.100.0/24'] });
    expect(allow.decideName('api.example.com')).toBe('allowed');
    expect(allow.decideName('other.org')).toBe('by-address');
    expect(allow.decideAddress('198.51.100.20')).toBe('allowed');
    expect(allow.decideAddress('198.51.101.20')).toBe('blocked');
    expect(allow.decideAddress('2001:db8::1')).toBe('blocked');
    const namesOnly = compileTargetRules({ mode: 'allow', rules: ['example.com'] });
    expect(namesOnly.decideName('other.org')).toBe('blocked');
    expect(namesOnly.decideAddress('198.51.100.20')).toBe('blocked');
  });

  it('merges overlapping blocks', () => {
    const m = compileTargetRules({ mode: 'deny', rules: ['10.0.0.0/8', '10.1.0.0/16', '11.0.0.0/8', '192.0.2.1'] });
    expect(m.size).toBe(2);
    expect(m.decideAddress('11.255.255.255')).toBe('blocked');
    expect(m.decideAddress('12.0.0.0')).toBe('allowed');
    expect(m.decideAddress('192.0.2.1')).toBe('blocked');
    expect(m.decideAddress('192.0.2.2')).toBe('allowed');
  });
});
