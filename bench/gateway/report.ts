/** A table cell: text or a number (numbers are right-aligned). */
export type TCell = string | number;

/** The median of some samples (NaN when there are none). */
export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A Markdown table, padded so that it also reads well in a terminal. */
export function formatTable(header: string[], rows: TCell[][]): string {
  const text = rows.map((row) => row.map((cell) => String(cell)));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((row) => row[i]?.length ?? 0)));
  const isNumeric = header.map(
    (_, i) =>
      rows.length > 0 && rows.every((row) => typeof row[i] === 'number' || /^-?[\d.]+( x)?$|^-$/.test(String(row[i]))),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (isNumeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (isNumeric[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...text.map(line)].join('\n');
}
