/**
 * Feature flags of crm-core.md §1 and the gates of §6. A flag is set per company and may be overridden per user;
 * `resolveFeatures` is the one place that combines them, used by the server (route gates) and the browser (nav).
 */
export const FEATURE_FLAGS = [
  { key: 'medicare_center', label: 'Medicare center', default: true },
  { key: 'sms_campaigns', label: 'SMS campaigns', default: true },
  { key: 'dialer', label: 'Dialer', default: true },
  // On: every call is recorded from its start (the agent may pause it); off: calls are not recorded at all.
  { key: 'call_recording', label: 'Record calls', default: true },
  { key: 'workflows', label: 'Workflows', default: true },
  { key: 'reports', label: 'Reports', default: true },
  { key: 'linked_contacts', label: 'Linked contacts', default: true },
  { key: 'follow_ups', label: 'Follow-ups', default: true },
  { key: 'soa_requests', label: 'SOA requests', default: true },
  { key: 'email_log', label: 'Email log', default: true },
  { key: 'training_app', label: 'Training app', default: false },
  { key: 'wallet_feature', label: 'Wallet', default: true },
  { key: 'single_sign_on', label: 'Single sign-on', default: false },
  { key: 'help_button', label: 'Help button', default: true },
  { key: 'care_in_advance', label: 'Care-in-advance', default: false },
  { key: 'products', label: 'Products', default: false },
  { key: 'chat_popup', label: 'Chat popup (MAX)', default: true },
  { key: 'basic_agent', label: 'Basic agents', default: false },
  { key: 'regional_manager', label: 'Regional managers', default: false },
  { key: 'central_office', label: 'Central office', default: false },
  { key: 'two_factor_required', label: 'Require two-factor sign-in', default: false },
] as const;

export type FeatureKey = (typeof FEATURE_FLAGS)[number]['key'];
export type Features = Record<FeatureKey, boolean>;

export const FEATURE_KEYS = FEATURE_FLAGS.map((f) => f.key) as FeatureKey[];

export function defaultFeatures(): Features {
  return Object.fromEntries(FEATURE_FLAGS.map((f) => [f.key, f.default])) as Features;
}

/** Company values win over defaults; a user's override wins over the company. */
export function resolveFeatures(
  company: Partial<Record<string, boolean>>,
  userOverrides: Partial<Record<string, boolean>> = {},
): Features {
  const out = defaultFeatures();
  for (const key of FEATURE_KEYS) {
    if (typeof company[key] === 'boolean') out[key] = company[key] as boolean;
    if (typeof userOverrides[key] === 'boolean') out[key] = userOverrides[key] as boolean;
  }
  return out;
}
