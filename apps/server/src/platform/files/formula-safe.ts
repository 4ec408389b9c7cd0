/**
 * OWASP "CSV injection": a cell starting with = + - @ (or tab / carriage return) is run as a formula by spreadsheet
 * programs. Data is stored as people typed it; whatever we write out for a spreadsheet passes through here (SQL
 * exports use the same rule in contacts/export.ts). Plain numbers such as -42 or +1.5 stay as they are.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralize(v: string): string {
  if (FORMULA_START.test(v) && !/^[+-]?\d+([.,]\d+)?$/.test(v)) return `'${v}`;
  return v;
}
