import type { TValidationKey } from './messages';

/**
 * The username template of an upstream pool (docs/pools.md, "Template grammar"): how the provider's username
 * carries what the customer chose. Text is copied as it is; `{name}` is a placeholder; `[...]` is an optional
 * segment, left out whole when a placeholder inside it is empty. Pure, so the API (saving, the check), the gateway
 * (dialling a pool) and the console (a preview) read a template the same way.
 *
 *   customer-{user}-cc-{country}[-st-{state}][-city-{city}][-sessid-{session}-sesstime-{minutes}]
 */

/** Placeholders a template may use: the pool's account, the customer's area, the sticky session and its minutes. */
export const POOL_TEMPLATE_PLACEHOLDERS = ['user', 'country', 'state', 'city', 'session', 'minutes'] as const;
/** One placeholder. */
export type TPoolPlaceholder = (typeof POOL_TEMPLATE_PLACEHOLDERS)[number];

/** Longest template, in characters. */
export const POOL_TEMPLATE_MAX_CHARS = 200;
/** Longest rendered username, in bytes (SOCKS5 carries at most 255, RFC 1929). */
export const POOL_USERNAME_MAX_BYTES = 255;
/** Characters of a pool session id: lower-case letters and digits, which every provider takes. */
export const POOL_SESSION_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Length of a session id of `{session}`; `{session:N}` asks for N (POOL_SESSION_MIN_LENGTH to POOL_SESSION_MAX_LENGTH). */
export const POOL_SESSION_LENGTH = 12;
/** Shortest and longest session id a template may ask for. */
export const POOL_SESSION_MIN_LENGTH = 4;
export const POOL_SESSION_MAX_LENGTH = 32;

/** A part of a segment: literal text or a placeholder. */
export type TPoolTemplatePart = { kind: 'text'; text: string } | { kind: 'slot'; name: TPoolPlaceholder };
/** A run of parts; an optional one is left out whole when one of its placeholders is empty. */
export type TPoolTemplateSegment = { isOptional: boolean; parts: TPoolTemplatePart[] };

/** A template read and checked: its segments, the session length, and the characters that separate its values. */
export type TPoolTemplate = {
  source: string;
  segments: TPoolTemplateSegment[];
  /** Placeholders it uses. */
  placeholders: ReadonlySet<TPoolPlaceholder>;
  /** Length of the session ids it takes. */
  sessionLength: number;
  /**
   * Characters of the text right before or after a placeholder (`-` in `-cc-{country}-`): an area's spelling must
   * not contain them, or the provider would read the value apart.
   */
  separators: ReadonlySet<string>;
};

/** Why a template, a spelling or a value is refused: a message key of messages.ts and its parameters. */
export type TPoolTemplateProblem = { message: TValidationKey; params?: Record<string, string> };

const PLACEHOLDER_LIST = POOL_TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ');

/** A character as messages show it: `":"` with its code point; a blank or control character by its code point only. */
export function describeCharacter(char: string): string {
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\x21-\x7e]$/.test(char) ? `"${char}" (${code})` : code;
}

/**
 * A character no provider takes in a username: ':' ends the username in HTTP Basic credentials, '@' ends the
 * credentials in a proxy URL, blanks and control characters break the header and the SOCKS5 message, and
 * non-ASCII characters are read in different encodings. The template's own brackets are its syntax.
 */
export function isRefusedUsernameCharacter(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code <= 0x20 || code >= 0x7f || char === ':' || char === '@';
}

function refusedCharacter(char: string): TPoolTemplateProblem {
  return { message: 'poolTemplateChar', params: { char: describeCharacter(char) } };
}

type TToken = { kind: 'text' } | { kind: 'slot'; name: TPoolPlaceholder } | { kind: 'open' } | { kind: 'close' };

// Whether what follows position `at` of the flat tokens is always text or the end, whichever optional segments are left out.
function isSeparatedAfter(tokens: TToken[], at: number): boolean {
  for (let i = at + 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind === 'text') return true;
    if (token.kind === 'slot') return false;
    if (token.kind === 'open') {
      // The segment starts with text (checked when it was read); left out, what follows it must be separated too.
      const close = tokens.findIndex((t, j) => j > i && t.kind === 'close');
      return isSeparatedAfter(tokens, close);
    }
  }
  return true;
}

/** Reads and checks a template; answers it, or the first problem (with the character or placeholder at fault). */
export function compilePoolTemplate(
  source: string,
): { ok: true; template: TPoolTemplate } | { ok: false; problem: TPoolTemplateProblem } {
  const fail = (problem: TPoolTemplateProblem) => ({ ok: false as const, problem });
  if (source.length === 0) return fail({ message: 'required' });
  if (source.length > POOL_TEMPLATE_MAX_CHARS) return fail({ message: 'tooLong' });
  const segments: TPoolTemplateSegment[] = [];
  const tokens: TToken[] = [];
  const placeholders = new Set<TPoolPlaceholder>();
  let sessionLength: number | null = null;
  let current: TPoolTemplateSegment = { isOptional: false, parts: [] };
  const close = () => {
    if (current.parts.length > 0) segments.push(current);
  };
  for (let i = 0; i < source.length;) {
    const char = String.fromCodePoint(source.codePointAt(i)!);
    if (char === '{') {
      const end = source.indexOf('}', i + 1);
      const inner = end === -1 ? '' : source.slice(i + 1, end);
      if (end === -1 || /[{[\]]/.test(inner)) return fail({ message: 'poolTemplateBrace' });
      const match = /^([a-z]+)(?::(\d{1,2}))?$/.exec(inner);
      const name = match?.[1] as TPoolPlaceholder | undefined;
      if (!match || !name || !(POOL_TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name))
        return fail({ message: 'poolTemplateUnknown', params: { name: `{${inner}}`, list: PLACEHOLDER_LIST } });
      if (match[2] !== undefined || name === 'session') {
        const length = match[2] === undefined ? POOL_SESSION_LENGTH : Number(match[2]);
        const isFit =
          name === 'session' &&
          length >= POOL_SESSION_MIN_LENGTH &&
          length <= POOL_SESSION_MAX_LENGTH &&
          (sessionLength === null || sessionLength === length);
        if (!isFit) return fail({ message: 'poolTemplateSessionLength', params: { name: `{${inner}}` } });
        sessionLength = length;
      }
      placeholders.add(name);
      current.parts.push({ kind: 'slot', name });
      tokens.push({ kind: 'slot', name });
      i = end + 1;
    } else if (char === '}') {
      return fail({ message: 'poolTemplateBrace' });
    } else if (char === '[') {
      if (current.isOptional) return fail({ message: 'poolTemplateNested' });
      close();
      current = { isOptional: true, parts: [] };
      tokens.push({ kind: 'open' });
      i += 1;
    } else if (char === ']') {
      if (!current.isOptional) return fail({ message: 'poolTemplateBracket' });
      if (!current.parts.some((p) => p.kind === 'slot')) return fail({ message: 'poolTemplateOptionalSlot' });
      if (current.parts[0].kind !== 'text') return fail({ message: 'poolTemplateOptionalStart' });
      close();
      current = { isOptional: false, parts: [] };
      tokens.push({ kind: 'close' });
      i += 1;
    } else {
      if (isRefusedUsernameCharacter(char)) return fail(refusedCharacter(char));
      const last = current.parts.at(-1);
      if (last?.kind === 'text') last.text += char;
      else current.parts.push({ kind: 'text', text: char });
      if (tokens.at(-1)?.kind !== 'text') tokens.push({ kind: 'text' });
      i += char.length;
    }
  }
  if (current.isOptional) return fail({ message: 'poolTemplateBracket' });
  close();
  // Two values with nothing between them cannot be told apart (whichever optional segments are left out).
  for (const [at, token] of tokens.entries()) {
    if (token.kind === 'slot' && !isSeparatedAfter(tokens, at))
      return fail({ message: 'poolTemplateAdjacent', params: { name: `{${token.name}}` } });
  }
  const separators = new Set<string>();
  for (const segment of segments) {
    segment.parts.forEach((part, index) => {
      if (part.kind !== 'slot') return;
      const before = segment.parts[index - 1];
      const after = segment.parts[index + 1];
      if (before?.kind === 'text') separators.add(before.text.at(-1)!);
      if (after?.kind === 'text') separators.add(after.text[0]);
    });
  }
  // A placeholder at a segment's edge has its neighbour in the next or previous segment.
  for (let s = 1; s < segments.length; s++) {
    const previous = segments[s - 1].parts.at(-1)!;
    const first = segments[s].parts[0];
    if (previous.kind === 'slot' && first.kind === 'text') separators.add(first.text[0]);
    if (previous.kind === 'text' && first.kind === 'slot') separators.add(previous.text.at(-1)!);
  }
  // Letters and digits next to a placeholder are part of the grammar's words, not separators a value could contain.
  for (const char of separators) if (/[a-z0-9]/i.test(char)) separators.delete(char);
  return {
    ok: true,
    template: { source, segments, placeholders, sessionLength: sessionLength ?? POOL_SESSION_LENGTH, separators },
  };
}

/** An area as the product names it: ISO country code and state and city slugs ('' for any), lower case. */
export type TPoolArea = { country: string; state: string; city: string };
/** How the provider spells one of our areas (its country, state or city level, by the area's most specific part). */
export type TPoolAreaSpelling = TPoolArea & { spelling: string };
/** How a provider spells areas: a case for our slugs, and its own words for some areas. */
export type TPoolSpelling = { areaCase: 'lower' | 'upper'; mapping: readonly TPoolAreaSpelling[] };

/** The key of an area in a mapping: `us`, `us/california`, `us/california/losangeles`. */
export function poolAreaKey(area: TPoolArea): string {
  return [area.country, area.state, area.city].filter(Boolean).join('/');
}

/**
 * The provider's spelling of each level of an area: a mapped word for the level's key (`us/california` ->
 * `us_california`) as it was imported, else our slug in the pool's case. '' stays '' (no state, no city).
 */
export function createAreaSpeller(spelling: TPoolSpelling): (area: TPoolArea) => TPoolArea {
  const words = new Map(spelling.mapping.map((m) => [poolAreaKey(m), m.spelling]));
  const cased = (slug: string) => (spelling.areaCase === 'upper' ? slug.toUpperCase() : slug.toLowerCase());
  const spell = (key: string, slug: string) => (slug === '' ? '' : (words.get(key) ?? cased(slug)));
  return (area) => ({
    country: spell(area.country, area.country),
    state: area.state ? spell(`${area.country}/${area.state}`, area.state) : '',
    city: area.state && area.city ? spell(`${area.country}/${area.state}/${area.city}`, area.city) : '',
  });
}

/** Whether a provider's spelling may stand in a username of this template (no refused character, no separator). */
export function findSpellingProblem(template: TPoolTemplate | null, spelling: string): TPoolTemplateProblem | null {
  if (spelling.length === 0) return { message: 'required' };
  for (const char of spelling) {
    if (isRefusedUsernameCharacter(char) || '{}[]'.includes(char) || template?.separators.has(char))
      return { message: 'poolSpellingChar', params: { spelling, char: describeCharacter(char) } };
  }
  return null;
}

/** Which areas a pool serves: every country, or a list (an entry serves itself and every area below it). */
export type TPoolCoverage = { mode: 'all' | 'list'; areas: readonly TPoolArea[] };

/** Whether the pool serves the area (a country, a state of it, a city of that). */
export function poolServesArea(coverage: TPoolCoverage, area: TPoolArea): boolean {
  if (coverage.mode === 'all') return true;
  return coverage.areas.some(
    (a) =>
      a.country === area.country &&
      (a.state === '' || a.state === area.state) &&
      (a.city === '' || (a.state === area.state && a.city === area.city)),
  );
}

/** What fills the placeholders: the pool's account name, the area as the provider spells it, the session. */
export type TPoolUsernameValues = {
  user: string;
  country: string;
  state?: string;
  city?: string;
  /** A session id of the template's length from POOL_SESSION_ALPHABET ('' or absent: no sticky session). */
  session?: string;
  /** Sticky minutes (with a session). */
  minutes?: number;
};

/** A rendered username, or why the values do not fit the template. */
export type TPoolUsernameResult =
  | { ok: true; username: string }
  | { ok: false; reason: 'missing'; placeholder: TPoolPlaceholder }
  | { ok: false; reason: 'separator' | 'refused-character'; placeholder: TPoolPlaceholder; char: string }
  | { ok: false; reason: 'bad-session' | 'too-long' };

const SESSION = /^[a-z0-9]*$/;

/**
 * The username for these values. A placeholder of the template's required part with no value makes no username
 * (`missing`); an optional segment with an empty placeholder is left out whole. An area value holding one of the
 * template's separators or a character no provider takes makes none either (it would be read apart).
 */
export function renderPoolUsername(template: TPoolTemplate, values: TPoolUsernameValues): TPoolUsernameResult {
  if (values.session && !SESSION.test(values.session)) return { ok: false, reason: 'bad-session' };
  const valueOf = (name: TPoolPlaceholder): string => {
    if (name === 'minutes') return values.minutes ? String(values.minutes) : '';
    return values[name] ?? '';
  };
  let username = '';
  for (const segment of template.segments) {
    let text = '';
    let isLeftOut = false;
    for (const part of segment.parts) {
      if (part.kind === 'text') {
        text += part.text;
        continue;
      }
      const value = valueOf(part.name);
      if (value === '') {
        if (!segment.isOptional) return { ok: false, reason: 'missing', placeholder: part.name };
        isLeftOut = true;
        break;
      }
      for (const char of value) {
        if (isRefusedUsernameCharacter(char))
          return { ok: false, reason: 'refused-character', placeholder: part.name, char };
        const isArea = part.name === 'country' || part.name === 'state' || part.name === 'city';
        if (isArea && template.separators.has(char))
          return { ok: false, reason: 'separator', placeholder: part.name, char };
      }
      text += value;
    }
    if (!isLeftOut) username += text;
  }
  if (new TextEncoder().encode(username).length > POOL_USERNAME_MAX_BYTES) return { ok: false, reason: 'too-long' };
  return { ok: true, username };
}

/**
 * A session id of `length` characters from POOL_SESSION_ALPHABET, made from `bytes` (random bytes for a new
 * session; a hash of what must map to the same session, so every gateway makes the same id). Throws when the
 * bytes are too few to fill it.
 */
export function encodePoolSessionId(bytes: Uint8Array, length: number): string {
  const base = BigInt(POOL_SESSION_ALPHABET.length);
  if (bytes.length * 8 < Math.ceil(length * Math.log2(POOL_SESSION_ALPHABET.length)))
    throw new Error(`a session id of ${length} characters needs more than ${bytes.length} bytes`);
  let n = 0n;
  for (const byte of bytes) n = (n << 8n) | BigInt(byte);
  let id = '';
  for (let i = 0; i < length; i++) {
    id += POOL_SESSION_ALPHABET[Number(n % base)];
    n /= base;
  }
  return id;
}

/** A new random session id of the template's length. */
export function randomPoolSessionId(length: number): string {
  return encodePoolSessionId(globalThis.crypto.getRandomValues(new Uint8Array(32)), length);
}
