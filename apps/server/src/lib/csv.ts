/**
 * One CSV cell (exports): quoted when it holds a quote, comma or line break,
 * and never starting with a character a spreadsheet reads as a formula.
 */
export function csvCell(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
