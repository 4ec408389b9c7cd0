/**
 * Cell normalisation, pure: phones to 11 digits with the leading 1 (spec §5), dates to ISO, states to two-letter
 * codes. Text is stored as the person typed it: formula-looking cells are neutralised when they leave again, by the
 * exports (docs/decisions/formula-neutralisation-on-export.md). Footer rows ("Total", a row of sums) are skipped.
 */
import { type ImportField, normalizePhone, ownValue, US_STATES } from '@harbor/shared';
import { excelSerialToIso } from '../../../platform/files/xlsx-reader.js';

export { excelSerialToIso };

// biome-ignore format: a table reads better wide
const STATE_NAMES: Record<string, string> = {
  alabama: 'AL', alaska: 'AK', arizona: 'AZ', arkansas: 'AR', california: 'CA', colorado: 'CO', connecticut: 'CT',
  delaware: 'DE', 'district of columbia': 'DC', florida: 'FL', georgia: 'GA', hawaii: 'HI', idaho: 'ID',
  illinois: 'IL', indiana: 'IN', iowa: 'IA', kansas: 'KS', kentucky: 'KY', louisiana: 'LA', maine: 'ME',
  maryland: 'MD', massachusetts: 'MA', michigan: 'MI', minnesota: 'MN', mississippi: 'MS', missouri: 'MO',
  montana: 'MT', nebraska: 'NE', nevada: 'NV', 'new hampshire': 'NH', 'new jersey': 'NJ', 'new mexico': 'NM',
  'new york': 'NY', 'north carolina': 'NC', 'north dakota': 'ND', ohio: 'OH', oklahoma: 'OK', oregon: 'OR',
  pennsylvania: 'PA', 'rhode island': 'RI', 'south carolina': 'SC', 'south dakota': 'SD', tennessee: 'TN',
  texas: 'TX', utah: 'UT', vermont: 'VT', virginia: 'VA', washington: 'WA', 'west virginia': 'WV',
  wisconsin: 'WI', wyoming: 'WY',
};
const CODES = new Set<string>(US_STATES);

export function normalizeState(input: string): string | null {
  const v = input.trim().replace(/\./g, '');
  if (CODES.has(v.toUpperCase()) && v.length === 2) return v.toUpperCase();
  return ownValue(STATE_NAMES, v.toLowerCase().replace(/\s+/g, ' ')) ?? null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function iso(y: number, m: number, d: number): string | null {
  if (y < 1850 || y > 2200 || m < 1 || m > 12 || d < 1) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** Two-digit years: a year ahead of this one means last century (birth dates of Medicare-age people). */
function fullYear(y: number): number {
  if (y >= 100) return y;
  const now = new Date().getUTCFullYear() % 100;
  return y > now ? 1900 + y : 2000 + y;
}

/** ISO, US m/d/yyyy (or -), yyyy/m/d, "Mar 5 1950", "5 March 1950", or an Excel serial number. */
export function normalizeDate(input: string): string | null {
  const v = input.trim();
  if (!v) return null;
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ].*)?$/.exec(v);
  if (m) return iso(+m[1], +m[2], +m[3]);
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})$/.exec(v);
  if (m) return iso(fullYear(+m[3]), +m[1], +m[2]);
  m = /^([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(v);
  if (m) return iso(+m[3], MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1, +m[2]);
  m = /^(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})$/i.exec(v);
  if (m) return iso(+m[3], MONTHS.indexOf(m[2].slice(0, 3).toLowerCase()) + 1, +m[1]);
  if (/^\d{4,5}(\.\d+)?$/.test(v)) return excelSerialToIso(Number(v));
  return null;
}

const EMAIL_RE = /^[^\s@,;<>]+@[^\s@,;<>]+\.[a-z]{2,}$/i;
export const isEmail = (v: string) => EMAIL_RE.test(v) && v.length <= 254;

const GENDER: Record<string, string> = {
  m: 'male',
  male: 'male',
  f: 'female',
  female: 'female',
  man: 'male',
  woman: 'female',
};

/** Staging columns a row fills, in COPY order. */
// biome-ignore format: one list
export const STAGE_COLUMNS = [
  'first_name', 'last_name', 'email', 'phone', 'secondary_phone', 'date_of_birth', 'gender', 'language', 'address',
  'address2', 'city', 'state', 'zip', 'county', 'medicare_number', 'part_a_effective', 'part_b_effective', 'tags',
  'attachment',
] as const;
export type StageColumn = (typeof STAGE_COLUMNS)[number];

export interface StagedRow {
  values: Partial<Record<StageColumn, string>>;
  extra: Record<string, string> | null;
  reasons: string[];
  /** Why the row is not a contact at all and is skipped (a footer), or null. */
  skip: string | null;
}

/** "Total", "Totals:", "Grand total", "Subtotal", "Sum", "Count: 45", "Records 120". */
const TOTAL_LABEL = /^(?:(?:grand|sub)[\s-]*)?totals?\b|^(?:sum|count|records?|rows?)\s*[:=]?\s*[\d,.]*$/i;
const NUMBERISH = /^[-+(]?\s*[$€£]?\s*[\d][\d,]*(?:\.\d+)?\s*%?\)?$/;

/**
 * A footer a spreadsheet adds under a list is not a person: a row with no phone and no email whose cells are a
 * "Total" label and numbers, or only numbers in columns that are no contact field (a sum of premiums).
 */
export function footerReason(cells: string[], fields: ImportField[], values: StagedRow['values']): string | null {
  if (values.phone || values.email) return null;
  const filled: Array<[string, ImportField]> = [];
  cells.forEach((c, i) => {
    const v = c.trim();
    if (v) filled.push([v, fields[i] ?? 'extra']);
  });
  if (filled.length === 0) return null;
  const label = filled.find(([v]) => TOTAL_LABEL.test(v) && !NUMBERISH.test(v));
  if (label) {
    const rest = filled.filter((f) => f !== label);
    if (rest.every(([v]) => NUMBERISH.test(v))) return `Footer row ('${label[0].slice(0, 40)}'), not a contact`;
    return null;
  }
  if (filled.every(([v, f]) => NUMBERISH.test(v) && (f === 'extra' || f === 'ignore'))) {
    return 'Footer row (only numbers, such as a sum), not a contact';
  }
  return null;
}

const LIMITS: Partial<Record<StageColumn, number>> = { tags: 1000, address: 300, attachment: 300 };

/** Applies the mapping to one row's cells: normalised values plus the reasons the row cannot be imported. */
export function stageRow(cells: string[], headers: string[], fields: ImportField[]): StagedRow {
  const values: StagedRow['values'] = {};
  let extra: Record<string, string> | null = null;
  const reasons: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const raw = (cells[i] ?? '').trim();
    const field = fields[i];
    if (!raw || field === 'ignore') continue;
    switch (field) {
      case 'extra':
        extra ??= {};
        // defineProperty, not assignment: a column headed "__proto__" is data, not the object's prototype.
        Object.defineProperty(extra, headers[i] || `column_${i + 1}`, {
          value: raw.slice(0, 1000),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        break;
      case 'full_name': {
        const parts = raw.includes(',') ? raw.split(',').reverse() : raw.split(/\s+/);
        values.first_name ??= parts[0].trim();
        values.last_name ??= parts.slice(1).join(' ').trim();
        break;
      }
      case 'phone':
      case 'secondary_phone': {
        const p = normalizePhone(raw);
        if (p) values[field] = p;
        else reasons.push(`${field === 'phone' ? 'Phone' : 'Secondary phone'} '${raw}' is not a US phone number`);
        break;
      }
      case 'email':
        if (isEmail(raw)) values.email = raw.toLowerCase();
        else reasons.push(`Email '${raw}' is not an email address`);
        break;
      case 'date_of_birth':
      case 'part_a_effective':
      case 'part_b_effective': {
        const d = normalizeDate(raw);
        if (d) values[field] = d;
        else reasons.push(`Date '${raw}' in ${headers[i] || field} is not a date`);
        break;
      }
      case 'state': {
        const s = normalizeState(raw);
        if (s) values.state = s;
        else reasons.push(`State '${raw}' is not a US state`);
        break;
      }
      case 'gender': {
        const g = ownValue(GENDER, raw.toLowerCase());
        if (g) values.gender = g;
        break;
      }
      case 'language':
        values.language = raw.toLowerCase();
        break;
      case 'zip': {
        const z = /^\d{5}(-?\d{4})?$/.test(raw) ? raw.slice(0, 5) : /^\d{4}$/.test(raw) ? `0${raw}` : null;
        if (z) values.zip = z;
        else reasons.push(`Zip code '${raw}' is not a US zip code`);
        break;
      }
      default:
        values[field] = raw.slice(0, ownValue(LIMITS, field) ?? 200);
    }
  }
  const skip = footerReason(cells, fields, values);
  if (skip) return { values: {}, extra: null, reasons: [], skip };
  if (!values.first_name && !values.last_name && !values.phone && !values.email && reasons.length === 0) {
    reasons.push('The row needs a name, a phone or an email');
  }
  return { values, extra, reasons, skip: null };
}
