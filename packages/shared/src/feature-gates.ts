/**
 * Feature gates: what a route (config.feature on the server) or a screen needs beyond its permission. One gate per
 * feature flag of crm-core.md §1, plus what the basic flag takes away (§1: reports, marketing profile, contact
 * permissions, follow-ups, external accounts). A closed gate answers 403 with the reason
 * (docs/decisions/feature-flag-enforcement.md); the navigation reads the same gates.
 */
import { FEATURE_FLAGS, type FeatureKey, type Features } from './features.js';

type GateSubject = { basic: boolean; features: Features };

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

export type FeatureGate = (typeof FLAG_GATES)[number] | (typeof BASIC_LOSSES)[number];
export const FEATURE_GATES: readonly FeatureGate[] = [...new Set<FeatureGate>([...FLAG_GATES, ...BASIC_LOSSES])];

const BASIC_LOSS_LABELS: Record<(typeof BASIC_LOSSES)[number], string> = {
  reports: 'Reports',
  marketing_profile: 'Marketing profile',
  contact_permissions: 'Contact permissions',
  follow_ups: 'Follow-ups',
  external_accounts: 'External accounts',
};

export function featureGateLabel(gate: FeatureGate): string {
  return FEATURE_FLAGS.find((f) => f.key === gate)?.label ?? BASIC_LOSS_LABELS[gate as keyof typeof BASIC_LOSS_LABELS];
}

const isFlag = (gate: FeatureGate): gate is (typeof FLAG_GATES)[number] =>
  (FLAG_GATES as readonly string[]).includes(gate);
const isBasicLoss = (gate: FeatureGate) => (BASIC_LOSSES as readonly string[]).includes(gate);

/** Why the gate is closed for this subject, or null when it is open. */
export function featureGateRefusal(subject: GateSubject, gate: FeatureGate): string | null {
  const label = featureGateLabel(gate);
  if (isFlag(gate) && !subject.features[gate]) return `${label} is turned off for your account.`;
  if (isBasicLoss(gate) && subject.basic) return `${label} is not part of a basic account.`;
  return null;
}

export const featureGateOpen = (subject: GateSubject, gate: FeatureGate) => featureGateRefusal(subject, gate) === null;
