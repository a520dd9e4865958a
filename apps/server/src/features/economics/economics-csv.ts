import { RECONCILIATION_MAX_LINES, RECONCILIATION_UNITS, type TValidationKey } from '@proxy/contract';

/** A line of a provider report that cannot be taken: a message key with the line number among its parameters. */
export type TReconciliationCsvIssue = { path: 'csv'; message: TValidationKey; params: Record<string, string> };

/** One day of a provider report. */
export type TProviderDay = { day: string; bytes: number };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WHOLE = /^\d+$/;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const UNIT_POWER: Record<(typeof RECONCILIATION_UNITS)[number], bigint> = { B: 0n, KB: 1n, MB: 2n, GB: 3n, TB: 4n };

function isDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

// `value` of `unit` in bytes, rounded half up to a byte (binary units); undefined when it is not one or too large.
function bytesOf(value: string, unit: string | undefined): number | undefined {
  if (unit === undefined) {
    if (!WHOLE.test(value)) return undefined;
    const n = BigInt(value);
    return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : undefined;
  }
  const m = DECIMAL.exec(value);
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  const scale = 10n ** BigInt(fraction.length);
  const scaled = BigInt(m[1] + fraction) * 1024n ** UNIT_POWER[unit as keyof typeof UNIT_POWER];
  const n = (scaled * 2n + scale) / (scale * 2n);
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : undefined;
}

/**
 * A provider's usage report of one pool (docs/economics.md, "Reconciliation"): `day,bytes[,unit]` a line, day as
 * YYYY-MM-DD (UTC), bytes a whole number, or with a unit column (B, KB, MB, GB, TB; binary, as allowances count) a
 * decimal rounded half up to the byte. A first line whose day is not a date but holds letters is a header; blank
 * lines and # comments are skipped. Every bad line is named (then nothing is taken).
 */
export function parseProviderReport(text: string): { days: TProviderDay[]; issues: TReconciliationCsvIssue[] } {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((raw, index) => ({ line: index + 1, raw: raw.trim() }))
    .filter(({ raw }) => raw !== '' && !raw.startsWith('#'))
    .map(({ line, raw }) => ({ line, fields: raw.split(',').map((f) => f.trim().replace(/^"(.*)"$/, '$1')) }));
  const first = lines[0];
  if (first && !isDay(first.fields[0] ?? '') && /[a-z]/i.test(first.fields[0] ?? '')) lines.shift();
  if (lines.length > RECONCILIATION_MAX_LINES)
    return {
      days: [],
      issues: [{ path: 'csv', message: 'poolCsvTooMany', params: { max: String(RECONCILIATION_MAX_LINES) } }],
    };
  const days: TProviderDay[] = [];
  const issues: TReconciliationCsvIssue[] = [];
  const seen = new Map<string, number>();
  for (const { line, fields } of lines) {
    const at = String(line);
    if (fields.length < 2 || fields.length > 3) {
      issues.push({ path: 'csv', message: 'reconciliationCsvColumns', params: { line: at } });
      continue;
    }
    const [day, value, rawUnit] = fields as [string, string, string | undefined];
    if (!isDay(day)) {
      issues.push({ path: 'csv', message: 'reconciliationCsvDay', params: { line: at, value: day } });
      continue;
    }
    const unit = rawUnit === undefined || rawUnit === '' ? undefined : rawUnit.toUpperCase();
    if (unit !== undefined && !(RECONCILIATION_UNITS as readonly string[]).includes(unit)) {
      issues.push({ path: 'csv', message: 'reconciliationCsvUnit', params: { line: at, value: rawUnit ?? '' } });
      continue;
    }
    const bytes = bytesOf(value, unit);
    if (bytes === undefined) {
      issues.push({ path: 'csv', message: 'reconciliationCsvBytes', params: { line: at, value } });
      continue;
    }
    const earlier = seen.get(day);
    if (earlier !== undefined) {
      issues.push({ path: 'csv', message: 'poolCsvDuplicate', params: { line: at, first: String(earlier) } });
      continue;
    }
    seen.set(day, line);
    days.push({ day, bytes });
  }
  if (issues.length === 0 && days.length === 0)
    issues.push({ path: 'csv', message: 'reconciliationCsvEmpty', params: {} });
  return { days, issues };
}
