import { describe, expect, it } from 'vitest';
import { validationMessage } from './messages';
import {
  compilePoolTemplate,
  createAreaSpeller,
  encodePoolSessionId,
  findSpellingProblem,
  poolServesArea,
  randomPoolSessionId,
  renderPoolUsername,
  type TPoolTemplate,
  type TPoolUsernameValues,
} from './pools-template';

function compiled(source: string): TPoolTemplate {
  const result = compilePoolTemplate(source);
  if (!result.ok) throw new Error(`${source}: ${JSON.stringify(result.problem)}`);
  return result.template;
}

function problemOf(source: string) {
  const result = compilePoolTemplate(source);
  return result.ok ? null : result.problem;
}

const render = (source: string, values: TPoolUsernameValues) => renderPoolUsername(compiled(source), values);

describe('pool username templates: rendering', () => {
  const oxylabs = 'customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]';

  it('fills every placeholder: user, country, state, city, session and minutes', () => {
    expect(
      render(oxylabs, {
        user: 'acme',
        country: 'US',
        state: 'us_california',
        city: 'los_angeles',
        session: 'abc123def456',
        minutes: 10,
      }),
    ).toEqual({
      ok: true,
      username: 'customer-acme-cc-US-st-us_california-city-los_angeles-sessid-abc123def456-sesstime-10',
    });
    for (const [name, values, username] of [
      ['user', { user: 'u1', country: 'x' }, 'u1'],
      ['country', { user: 'u', country: 'de' }, 'de'],
      ['state', { user: 'u', country: 'x', state: 'by' }, 'by'],
      ['city', { user: 'u', country: 'x', city: 'munich' }, 'munich'],
      ['session', { user: 'u', country: 'x', session: 'k3y' }, 'k3y'],
      ['minutes', { user: 'u', country: 'x', minutes: 30 }, '30'],
    ] as const) {
      expect(render(`p-{${name}}`, values), name).toEqual({ ok: true, username: `p-${username}` });
    }
  });

  it('leaves out an optional segment whole when a placeholder inside it is empty', () => {
    const values = { user: 'acme', country: 'US' };
    expect(render(oxylabs, values)).toEqual({ ok: true, username: 'customer-acme-cc-US' });
    expect(render(oxylabs, { ...values, city: 'paris' })).toEqual({
      ok: true,
      username: 'customer-acme-cc-US-city-paris',
    });
    // The session without its minutes (or the minutes without a session): the whole sticky segment goes.
    expect(render(oxylabs, { ...values, session: 'abc' })).toEqual({ ok: true, username: 'customer-acme-cc-US' });
    expect(render(oxylabs, { ...values, minutes: 5 })).toEqual({ ok: true, username: 'customer-acme-cc-US' });
  });

  it('refuses to render a required placeholder without a value, an area value holding a separator, a long username', () => {
    expect(render(oxylabs, { user: 'acme', country: '' })).toEqual({
      ok: false,
      reason: 'missing',
      placeholder: 'country',
    });
    expect(render(oxylabs, { user: 'acme', country: 'us', city: 'new-york' })).toEqual({
      ok: false,
      reason: 'separator',
      placeholder: 'city',
      char: '-',
    });
    expect(render('u-{user}', { user: 'a:b', country: 'us' })).toMatchObject({
      ok: false,
      reason: 'refused-character',
    });
    expect(render(oxylabs, { user: 'acme', country: 'us', session: 'NOT_SAFE' })).toEqual({
      ok: false,
      reason: 'bad-session',
    });
    expect(render('u-{user}', { user: 'x'.repeat(300), country: 'us' })).toEqual({ ok: false, reason: 'too-long' });
  });

  it('spells areas in the pool case, or by the imported mapping of each level', () => {
    const speller = createAreaSpeller({
      areaCase: 'upper',
      mapping: [
        { country: 'us', state: 'california', city: '', spelling: 'us_california' },
        { country: 'us', state: 'california', city: 'losangeles', spelling: 'los_angeles' },
        { country: 'gb', state: '', city: '', spelling: 'UK' },
      ],
    });
    expect(speller({ country: 'us', state: 'california', city: 'losangeles' })).toEqual({
      country: 'US',
      state: 'us_california',
      city: 'los_angeles',
    });
    expect(speller({ country: 'us', state: 'texas', city: '' })).toEqual({ country: 'US', state: 'TEXAS', city: '' });
    expect(speller({ country: 'gb', state: '', city: '' })).toEqual({ country: 'UK', state: '', city: '' });
    const lower = createAreaSpeller({ areaCase: 'lower', mapping: [] });
    expect(lower({ country: 'US', state: 'NY', city: 'NYC' })).toEqual({ country: 'us', state: 'ny', city: 'nyc' });
  });

  it('makes session ids of the safe alphabet and the template length; the same bytes make the same id', () => {
    expect(compiled('u-{session}').sessionLength).toBe(12);
    expect(compiled('u-{session:8}').sessionLength).toBe(8);
    const bytes = new Uint8Array(32).map((_, i) => i * 7);
    expect(encodePoolSessionId(bytes, 12)).toBe(encodePoolSessionId(bytes, 12));
    expect(encodePoolSessionId(bytes, 12)).toMatch(/^[a-z0-9]{12}$/);
    const ids = new Set(Array.from({ length: 200 }, () => randomPoolSessionId(8)));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]{8}$/);
    expect(() => encodePoolSessionId(new Uint8Array(4), 12)).toThrow(/needs more than 4 bytes/);
  });

  it('serves every country, or the listed areas and what lies below them', () => {
    const all = { mode: 'all' as const, areas: [] };
    expect(poolServesArea(all, { country: 'zw', state: 'x', city: 'y' })).toBe(true);
    const list = {
      mode: 'list' as const,
      areas: [
        { country: 'de', state: '', city: '' },
        { country: 'us', state: 'california', city: '' },
        { country: 'fr', state: 'idf', city: 'paris' },
      ],
    };
    expect(poolServesArea(list, { country: 'de', state: 'by', city: 'munich' })).toBe(true);
    expect(poolServesArea(list, { country: 'us', state: 'california', city: 'sf' })).toBe(true);
    expect(poolServesArea(list, { country: 'us', state: 'texas', city: '' })).toBe(false);
    expect(poolServesArea(list, { country: 'us', state: '', city: '' })).toBe(false);
    expect(poolServesArea(list, { country: 'fr', state: 'idf', city: 'paris' })).toBe(true);
    expect(poolServesArea(list, { country: 'fr', state: 'idf', city: '' })).toBe(false);
  });
});

describe('pool username templates: refused when saved', () => {
  it('refuses characters providers forbid in a username, naming the character in zh and en', () => {
    for (const [source, char] of [
      ['user:{country}', '":" (U+003A)'],
      ['user@{country}', '"@" (U+0040)'],
      ['user {country}', 'U+0020'],
      ['user\t{country}', 'U+0009'],
      ['user\u0000{country}', 'U+0000'],
      ['user\u007f{country}', 'U+007F'],
      ['usér-{country}', 'U+00E9'],
    ]) {
      expect(problemOf(source), source).toEqual({ message: 'poolTemplateChar', params: { char } });
    }
    const problem = problemOf('user:{country}')!;
    expect(validationMessage(problem.message, 'zh', problem.params)).toBe(
      '用户名模板不能包含字符 ":" (U+003A)：上游不接受它出现在用户名中',
    );
    expect(validationMessage(problem.message, 'en', problem.params)).toBe(
      'The username template cannot contain ":" (U+003A): providers do not accept it in a username',
    );
  });

  it('refuses nested optional segments, unknown placeholders and unbalanced brackets', () => {
    expect(problemOf('u[-a-{country}[-b-{state}]]')).toEqual({ message: 'poolTemplateNested' });
    expect(problemOf('u-{region}')).toEqual({
      message: 'poolTemplateUnknown',
      params: { name: '{region}', list: '{user} {country} {state} {city} {session} {minutes}' },
    });
    expect(problemOf('u-{Country}')).toMatchObject({ message: 'poolTemplateUnknown' });
    expect(problemOf('u-{}')).toMatchObject({ message: 'poolTemplateUnknown' });
    expect(problemOf('u-{country')).toEqual({ message: 'poolTemplateBrace' });
    expect(problemOf('u-country}')).toEqual({ message: 'poolTemplateBrace' });
    expect(problemOf('u-{coun{try}')).toEqual({ message: 'poolTemplateBrace' });
    expect(problemOf('u[-c-{country}')).toEqual({ message: 'poolTemplateBracket' });
    expect(problemOf('u-c-{country}]')).toEqual({ message: 'poolTemplateBracket' });
    expect(problemOf('u[-c-]')).toEqual({ message: 'poolTemplateOptionalSlot' });
    expect(problemOf('u[{country}-x]')).toEqual({ message: 'poolTemplateOptionalStart' });
    expect(problemOf('u-{country:5}')).toMatchObject({ message: 'poolTemplateSessionLength' });
    expect(problemOf('u-{session:3}')).toMatchObject({ message: 'poolTemplateSessionLength' });
    expect(problemOf('u-{session:8}-{session:9}')).toMatchObject({ message: 'poolTemplateSessionLength' });
    expect(problemOf('')).toEqual({ message: 'required' });
    expect(problemOf(`u-${'x'.repeat(200)}`)).toEqual({ message: 'tooLong' });
  });

  it('refuses two placeholders with nothing between them, even once an optional segment is left out', () => {
    expect(problemOf('{user}{country}')).toEqual({ message: 'poolTemplateAdjacent', params: { name: '{user}' } });
    expect(problemOf('{user}[-st-{state}]{city}')).toEqual({
      message: 'poolTemplateAdjacent',
      params: { name: '{user}' },
    });
    expect(problemOf('{user}[-st-{state}]-{city}')).toBeNull();
  });

  it('collects the separators of the template; a spelling holding one, or a refused character, is refused', () => {
    const template = compiled('{user}_country-{country}[_city-{city}]');
    expect([...template.separators].sort()).toEqual(['-', '_']);
    expect(findSpellingProblem(template, 'newyork')).toBeNull();
    expect(findSpellingProblem(template, 'new_york')).toEqual({
      message: 'poolSpellingChar',
      params: { spelling: 'new_york', char: '"_" (U+005F)' },
    });
    expect(findSpellingProblem(template, 'new york')).toMatchObject({ params: { char: 'U+0020' } });
    expect(findSpellingProblem(null, 'a:b')).toMatchObject({ message: 'poolSpellingChar' });
    expect(findSpellingProblem(null, '')).toEqual({ message: 'required' });
    // Letters next to a placeholder are the grammar's words, not separators.
    expect([...compiled('cc{country}x').separators]).toEqual([]);
  });
});
