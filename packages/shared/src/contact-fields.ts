/**
 * Contact fields as people read them: labels of the columns that imports, merges and the timeline name, and labels
 * of stored option values (exports and screens show "Final expense", never `final_expense`).
 */
import { GENDERS } from './options.js';

/** The fields that say who a person is: an import may only change them when it is sure it is the same person. */
export const IDENTITY_FIELDS = ['first_name', 'last_name', 'date_of_birth', 'medicare_number'] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

export const CONTACT_FIELD_LABELS: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone',
  phone_type: 'Phone type',
  secondary_phone: 'Secondary phone',
  date_of_birth: 'Date of birth',
  gender: 'Gender',
  language: 'Language',
  address: 'Address',
  address2: 'Address line 2',
  city: 'City',
  state: 'State',
  zip: 'Zip code',
  county: 'County',
  medicare_number: 'Medicare number',
  part_a_effective: 'Part A effective',
  part_b_effective: 'Part B effective',
  status_id: 'Status',
  source_id: 'Source',
  category: 'Category',
  type: 'Type',
  note: 'Note',
  extra: 'Extra fields',
  tags: 'Tags',
  owner_id: 'Owner',
};

/** `final_expense` -> "Final expense"; values that are not codes (a person typed them) are shown as they are. */
export function humanizeOption(value: string): string {
  if (!/^[a-z0-9]+(_[a-z0-9]+)*$/.test(value)) return value;
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Stored values with a label of their own (spec §3 option lists); everything else is humanised. */
export const OPTION_LABELS: Record<string, Record<string, string>> = {
  type: { lead: 'Lead', client: 'Client' },
  gender: Object.fromEntries(GENDERS.map((g) => [g.value, g.label])),
};

export function optionLabel(field: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  return OPTION_LABELS[field]?.[value] ?? humanizeOption(value);
}

export const fieldLabel = (field: string) => CONTACT_FIELD_LABELS[field] ?? humanizeOption(field);
