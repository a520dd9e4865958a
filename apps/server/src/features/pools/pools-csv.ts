import {
  POOL_AREAS_MAX,
  findSpellingProblem,
  isIsoCountryCode,
  poolAreaKey,
  type TPoolArea,
  type TPoolAreaSpelling,
  type TPoolTemplate,
  type TValidationKey,
} from '@proxy/contract';
import { toAreaSlug } from '../inventory/inventory-csv';

/** A line of a pool's CSV that cannot be taken: a message key with the line number among its parameters. */
export type TPoolCsvIssue = { path: 'csv'; message: TValidationKey; params: Record<string, string> };

const SLUG = /^[a-z0-9_]*$/;

type TLine = { line: number; fields: string[] };

// The lines that carry data (blank lines and # comments skipped), each split at commas.
function dataLines(text: string): TLine[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((raw, index) => ({ line: index + 1, raw: raw.trim() }))
    .filter(({ raw }) => raw !== '' && !raw.startsWith('#'))
    .map(({ line, raw }) => ({ line, fields: raw.split(',').map((f) => f.trim()) }));
}

// The area of a line's first three fields, as slugs; or the issue.
function areaOf(line: number, fields: string[]): TPoolArea | TPoolCsvIssue {
  const country = (fields[0] ?? '').toLowerCase();
  if (!isIsoCountryCode(country))
    return { path: 'csv', message: 'poolCsvCountry', params: { line: String(line), value: fields[0] ?? '' } };
  const state = toAreaSlug(fields[1] ?? '');
  const city = toAreaSlug(fields[2] ?? '');
  if (!SLUG.test(state) || !SLUG.test(city) || (city && !state))
    return { path: 'csv', message: 'poolCsvArea', params: { line: String(line) } };
  return { country, state, city };
}

function isIssue(value: TPoolArea | TPoolCsvIssue): value is TPoolCsvIssue {
  return 'message' in value;
}

/** Which areas a list names, in order, without repeats; or every bad line (then nothing is taken). */
function collect<T extends TPoolArea>(
  lines: TLine[],
  read: (line: TLine) => T | TPoolCsvIssue,
): { rows: T[]; issues: TPoolCsvIssue[] } {
  if (lines.length > POOL_AREAS_MAX)
    return { rows: [], issues: [{ path: 'csv', message: 'poolCsvTooMany', params: { max: String(POOL_AREAS_MAX) } }] };
  const rows: T[] = [];
  const issues: TPoolCsvIssue[] = [];
  const seen = new Map<string, number>();
  for (const line of lines) {
    const row = read(line);
    if (isIssue(row)) {
      issues.push(row);
      continue;
    }
    const key = poolAreaKey(row);
    const first = seen.get(key);
    if (first !== undefined) {
      issues.push({
        path: 'csv',
        message: 'poolCsvDuplicate',
        params: { line: String(line.line), first: String(first) },
      });
      continue;
    }
    seen.set(key, line.line);
    rows.push(row);
  }
  return { rows, issues };
}

/** A coverage list: `country[,state[,city]]` a line (names or slugs; stored as slugs). */
export function parsePoolCoverageCsv(text: string): { areas: TPoolArea[]; issues: TPoolCsvIssue[] } {
  const { rows, issues } = collect(dataLines(text), ({ line, fields }) => {
    if (fields.length > 3)
      return { path: 'csv', message: 'poolCsvColumns', params: { line: String(line), columns: 'country,state,city' } };
    return areaOf(line, fields);
  });
  return { areas: rows, issues };
}

/**
 * Area spellings: `country,state,city,spelling` a line. A spelling holding a separator of the template, or a
 * character no provider takes, is refused with its line.
 */
export function parsePoolMappingCsv(
  text: string,
  template: TPoolTemplate,
): { mapping: TPoolAreaSpelling[]; issues: TPoolCsvIssue[] } {
  const { rows, issues } = collect(dataLines(text), ({ line, fields }): TPoolAreaSpelling | TPoolCsvIssue => {
    if (fields.length !== 4)
      return {
        path: 'csv',
        message: 'poolCsvColumns',
        params: { line: String(line), columns: 'country,state,city,spelling' },
      };
    const area = areaOf(line, fields);
    if (isIssue(area)) return area;
    const problem = findSpellingProblem(template, fields[3]);
    if (problem?.message === 'required')
      return {
        path: 'csv',
        message: 'poolCsvColumns',
        params: { line: String(line), columns: 'country,state,city,spelling' },
      };
    if (problem) return { path: 'csv', message: 'poolCsvSpelling', params: { line: String(line), ...problem.params } };
    return { ...area, spelling: fields[3] };
  });
  return { mapping: rows, issues };
}
