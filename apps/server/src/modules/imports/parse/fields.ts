/**
 * Column mapping inference: first by the header's name (synonyms people actually use), then by what the cells hold
 * (emails, phones, dates, states). A column nothing recognises is kept as an extra field under its header.
 */
import { type ImportField, ownValue } from '@harbor/shared';
import { normalizeDate, normalizeState } from './normalize.js';

const SYNONYMS: Record<Exclude<ImportField, 'extra' | 'ignore'>, string[]> = {
  first_name: ['first name', 'firstname', 'fname', 'first', 'given name', 'forename', 'nombre'],
  last_name: ['last name', 'lastname', 'lname', 'last', 'surname', 'family name', 'apellido'],
  full_name: ['name', 'full name', 'fullname', 'contact name', 'client name', 'lead name', 'customer name'],
  email: ['email', 'e mail', 'email address', 'e mail address', 'mail', 'correo'],
  phone: [
    'phone',
    'phone number',
    'phone no',
    'cell',
    'cell phone',
    'mobile',
    'mobile phone',
    'telephone',
    'tel',
    'primary phone',
    'home phone',
    'contact number',
  ],
  secondary_phone: [
    'secondary phone',
    'phone 2',
    'phone2',
    'alt phone',
    'alternate phone',
    'work phone',
    'other phone',
  ],
  date_of_birth: ['dob', 'date of birth', 'birth date', 'birthdate', 'birthday', 'born'],
  gender: ['gender', 'sex'],
  language: ['language', 'preferred language', 'lang'],
  address: ['address', 'address 1', 'address1', 'street', 'street address', 'mailing address', 'address line 1'],
  address2: ['address 2', 'address2', 'address line 2', 'apt', 'suite', 'unit'],
  city: ['city', 'town'],
  state: ['state', 'st', 'province', 'state code'],
  zip: ['zip', 'zip code', 'zipcode', 'postal code', 'postcode', 'zip5'],
  county: ['county'],
  medicare_number: ['medicare number', 'medicare', 'mbi', 'medicare id', 'hicn'],
  part_a_effective: ['part a effective', 'part a', 'part a date', 'part a effective date'],
  part_b_effective: ['part b effective', 'part b', 'part b date', 'part b effective date'],
  tags: ['tags', 'tag', 'labels'],
  attachment: ['attachment', 'file', 'file name', 'filename', 'document'],
};

const BY_HEADER = new Map<string, ImportField>();
for (const [field, names] of Object.entries(SYNONYMS)) {
  for (const n of names) BY_HEADER.set(n, field as ImportField);
}

/** "First_Name", "E-Mail Address:" and "ZIP-Code" all reduce to the same words. */
export function headerKey(header: string): string {
  return header
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function fieldByHeader(header: string): ImportField | null {
  return BY_HEADER.get(headerKey(header)) ?? null;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Guesses a field from sample cells: most non-empty samples must agree. */
export function fieldByContent(samples: string[]): ImportField | null {
  const values = samples.map((s) => s.trim()).filter(Boolean);
  if (values.length === 0) return null;
  const share = (test: (v: string) => boolean) => values.filter(test).length / values.length;
  if (share((v) => EMAIL_RE.test(v)) >= 0.6) return 'email';
  if (share((v) => /^[+\d\s().-]{10,20}$/.test(v) && /^(1)?\d{10}$/.test(v.replace(/\D/g, ''))) >= 0.6) return 'phone';
  if (share((v) => /[/-]/.test(v) && normalizeDate(v) !== null) >= 0.6) return 'date_of_birth';
  if (share((v) => normalizeState(v) !== null && v.length <= 14) >= 0.8) return 'state';
  if (share((v) => /^\d{5}(-\d{4})?$/.test(v)) >= 0.8) return 'zip';
  return null;
}

export interface InferredColumn {
  header: string;
  field: ImportField;
  matched_by: 'form' | 'header' | 'content' | 'none';
  samples: string[];
}

/**
 * One field per column. The form's choices win; a field already taken is not given to a second column by
 * inference (two "phone" columns: the second becomes the secondary phone).
 */
export function inferMapping(
  headers: string[],
  sampleRows: string[][],
  chosen: Record<string, ImportField> = {},
): InferredColumn[] {
  const taken = new Set<ImportField>(Object.values(chosen).filter((f) => f !== 'extra' && f !== 'ignore'));
  const columns = headers.map((header, i) => ({
    header,
    samples: sampleRows
      .map((r) => r[i] ?? '')
      .filter((v) => v.trim() !== '')
      .slice(0, 5),
    all: sampleRows.map((r) => r[i] ?? ''),
  }));
  const out: InferredColumn[] = columns.map((c) => {
    const f = ownValue(chosen, c.header);
    return { header: c.header, field: f ?? 'extra', matched_by: f ? 'form' : 'none', samples: c.samples };
  });
  const claim = (i: number, field: ImportField | null, by: 'header' | 'content') => {
    if (!field || out[i].matched_by !== 'none') return;
    let f = field;
    if (taken.has(f) && f === 'phone' && !taken.has('secondary_phone')) f = 'secondary_phone';
    if (taken.has(f) && f !== 'tags') return;
    taken.add(f);
    out[i] = { ...out[i], field: f, matched_by: by };
  };
  for (const [i, c] of columns.entries()) claim(i, fieldByHeader(c.header), 'header');
  for (const [i, c] of columns.entries()) claim(i, fieldByContent(c.all), 'content');
  return out;
}
