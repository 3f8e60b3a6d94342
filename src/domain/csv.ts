/**
 * CSV (RFC 4180) for spreadsheet users. Text cells that a spreadsheet would read as a
 * formula (starting with = + - @, or tab / carriage return, which some apps strip first)
 * get a leading apostrophe (OWASP "CSV injection"): a respondent named `=HYPERLINK(...)`
 * must show as text in the owner's Excel, not run. Numbers we produce ourselves are
 * written as numbers (a score of -1 is not a formula).
 */
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function quote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return quote(neutraliseFormula(value));
}

/** One record, CRLF-terminated as RFC 4180 asks. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Excel reads UTF-8 CSV correctly only with a byte-order mark; other tools ignore it. */
export const CSV_BOM = '\uFEFF';
