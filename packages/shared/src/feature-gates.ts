/**
 * Feature gates: what a route (config.feature on the server) or a screen needs beyond its permission. One gate per
 * feature flag of crm-core.md §1, plus what the basic flag takes away (§1: reports, marketing profile, contact
 * permissions, follow-ups, external accounts), plus spec 2 §6's SMS_FEATURE (`sms_feature`: non-basic, wallet
 * enabled and an active premium Max Plus). A closed gate answers 403 with the reason
 * (docs/decisions/feature-flag-enforcement.md); the navigation reads the same gates.
 */
import { FEATURE_FLAGS, type FeatureKey, type Features } from './features.js';
import { hasPremiumMaxPlus, type MaxPlusState } from './max-plus.js';

/** `maxPlus` is the current user's Max Plus (`max_plus_subscription`); only the SMS gate reads it. */
type GateSubject = { basic: boolean; features: Features; maxPlus?: MaxPlusState | null };

/** The flags of §1 that switch a feature on or off (variant switches such as basic_agent are not gates). */
const FLAG_GATES = [
  'medicare_center',
  'sms_campaigns',
  'dialer',
  'workflows',
  'reports',
  'linked_contacts',
  'follow_ups',
  'soa_requests',
  'email_log',
  'training_app',
  'wallet_feature',
  'single_sign_on',
  'help_button',
  'care_in_advance',
  'products',
  'chat_popup',
] as const satisfies readonly FeatureKey[];

/** §1 "Users with the basic flag lose ..." (reports and follow-ups are flags as well). */
export const BASIC_LOSSES = [
  'reports',
  'marketing_profile',
  'contact_permissions',
  'follow_ups',
  'external_accounts',
] as const;

/** Gates made of several conditions (spec 2 §6). */
export const COMPOUND_GATES = ['sms_feature'] as const;

export type FeatureGate = (typeof FLAG_GATES)[number] | (typeof BASIC_LOSSES)[number] | (typeof COMPOUND_GATES)[number];
export const FEATURE_GATES: readonly FeatureGate[] = [
  ...new Set<FeatureGate>([...FLAG_GATES, ...BASIC_LOSSES, ...COMPOUND_GATES]),
];

const BASIC_LOSS_LABELS: Record<(typeof BASIC_LOSSES)[number], string> = {
  reports: 'Reports',
  marketing_profile: 'Marketing profile',
  contact_permissions: 'Contact permissions',
  follow_ups: 'Follow-ups',
  external_accounts: 'External accounts',
};

export function featureGateLabel(gate: FeatureGate): string {
  if (gate === 'sms_feature') return 'Texting';
  return FEATURE_FLAGS.find((f) => f.key === gate)?.label ?? BASIC_LOSS_LABELS[gate as keyof typeof BASIC_LOSS_LABELS];
}

/**
 * Spec 2 §6 SMS_FEATURE: non-basic, wallet enabled, and an active premium Max Plus subscription. Why it is closed,
 * or null. The SMS area's routes declare `feature: 'sms_feature'`; its screens read `featureGateOpen`.
 */
export function smsFeatureRefusal(subject: GateSubject): string | null {
  if (subject.basic) return 'Texting is not part of a basic account.';
  if (!subject.features.wallet_feature) return 'Texting is paid from the wallet, which is turned off for your account.';
  if (!hasPremiumMaxPlus(subject.maxPlus)) return 'Texting needs an active Max Plus Premium subscription.';
  return null;
}

const isFlag = (gate: FeatureGate): gate is (typeof FLAG_GATES)[number] =>
  (FLAG_GATES as readonly string[]).includes(gate);
const isBasicLoss = (gate: FeatureGate) => (BASIC_LOSSES as readonly string[]).includes(gate);

/** Why the gate is closed for this subject, or null when it is open. */
export function featureGateRefusal(subject: GateSubject, gate: FeatureGate): string | null {
  if (gate === 'sms_feature') return smsFeatureRefusal(subject);
  const label = featureGateLabel(gate);
  if (isFlag(gate) && !subject.features[gate]) return `${label} is turned off for your account.`;
  if (isBasicLoss(gate) && subject.basic) return `${label} is not part of a basic account.`;
  return null;
}

export const featureGateOpen = (subject: GateSubject, gate: FeatureGate) => featureGateRefusal(subject, gate) === null;
