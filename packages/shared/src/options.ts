/** Option lists of crm-core.md §3. */
export const TIME_ZONES = ['est', 'cst', 'mst', 'pst', 'akst', 'hst'] as const;
export type TimeZone = (typeof TIME_ZONES)[number];
export const DEFAULT_TIME_ZONE: TimeZone = 'est';
/** The named zones behind the short codes (the spec leaves the mapping unshown; these are the obvious IANA zones). */
export const TIME_ZONE_IANA: Record<TimeZone, string> = {
  est: 'America/New_York',
  cst: 'America/Chicago',
  mst: 'America/Denver',
  pst: 'America/Los_Angeles',
  akst: 'America/Anchorage',
  hst: 'Pacific/Honolulu',
};
export const TIME_ZONE_LABELS: Record<TimeZone, string> = {
  est: 'Eastern',
  cst: 'Central',
  mst: 'Mountain',
  pst: 'Pacific',
  akst: 'Alaska',
  hst: 'Hawaii',
};

// Display preferences live in their own module: the web app's theme reads DEFAULT_THEME on every page, the sign-in
// page included, and a module shared with the entry chunk brings all of its used exports there (the state list too).
export * from './appearance.js';

export const GENDERS = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
  { value: 'other', label: 'Empty' },
] as const;
export const PHONE_TYPES = [
  { value: 2, label: 'Mobile' },
  { value: 9, label: 'Other' },
] as const;
export const OFFICE_TYPES = ['main', 'branch'] as const;
export const LANGUAGES = ['english', 'spanish', 'french', 'chinese', 'korean', 'german'] as const;
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;
export const POSITION_TITLES = [
  'representative',
  'regional_sales_manager',
  'field_manager',
  'district_manager',
] as const;
export const POSITION_TITLES_BY_FLAG = [
  'advisor',
  'insurance_agent',
  'retirement_specialist',
  'funeral_director',
  'preneed_agent',
  'preneed_agent_and_funeral_director',
  'advanced_planning_specialist',
  'prearrangement_specialist',
  'licensed_insurance_agent',
  'agency_sales_manager',
  'development_manager',
  'recruiting_director',
  'regional_coordination_manager',
] as const;
export type PositionTitle = (typeof POSITION_TITLES)[number] | (typeof POSITION_TITLES_BY_FLAG)[number];
export const ALL_POSITION_TITLES = [...POSITION_TITLES, ...POSITION_TITLES_BY_FLAG] as const;

/**
 * Which flag-dependent titles a company offers. The spec says "by flag" without naming the flags; we key them on
 * the product variant: docs/decisions/position-titles-by-variant.md.
 */
const TITLES_BY_VARIANT: Record<'insurance' | 'funeral_preneed' | 'recruiting', PositionTitle[]> = {
  insurance: ['advisor', 'insurance_agent', 'retirement_specialist', 'licensed_insurance_agent'],
  funeral_preneed: [
    'funeral_director',
    'preneed_agent',
    'preneed_agent_and_funeral_director',
    'advanced_planning_specialist',
    'prearrangement_specialist',
  ],
  recruiting: ['agency_sales_manager', 'development_manager', 'recruiting_director', 'regional_coordination_manager'],
};

export function positionTitlesFor(variant: 'insurance' | 'funeral_preneed' | 'recruiting'): PositionTitle[] {
  return [...POSITION_TITLES, ...TITLES_BY_VARIANT[variant]];
}

export function positionTitleLabel(title: string): string {
  const text = title.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
