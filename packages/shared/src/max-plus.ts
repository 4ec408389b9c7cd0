/**
 * Max Plus, the paid add-on of spec 2 §3/§7 (payment_type credit_card and a plan). Its state travels on the current
 * user (`max_plus_subscription: { active, plan }`) and the SMS feature gate reads it (feature-gates.ts): texting
 * needs an active Premium plan. Prices are integer cents a month.
 */
export const MAX_PLUS_PLANS = ['standard', 'premium'] as const;
export type MaxPlusPlan = (typeof MAX_PLUS_PLANS)[number];
export const MAX_PLUS_PAYMENT_TYPES = ['credit_card'] as const;

export const MAX_PLUS_PLAN_INFO: Record<MaxPlusPlan, { label: string; price: number; features: string[] }> = {
  standard: {
    label: 'Max Plus Standard',
    price: 1_900,
    features: ['MAX assistant with contact search and help', 'Medicare date reminders by email'],
  },
  premium: {
    label: 'Max Plus Premium',
    price: 3_900,
    features: [
      'Everything in Standard',
      'Two-way texting with your contacts (paid from your wallet)',
      'Bulk texts and campaign triggers',
    ],
  },
};

/** What the current user carries. */
export interface MaxPlusState {
  active: boolean;
  plan: string | null;
}

/** The SMS feature needs an active Premium Max Plus (spec 2 §6). */
export const hasPremiumMaxPlus = (s: MaxPlusState | null | undefined) => Boolean(s?.active && s.plan === 'premium');
