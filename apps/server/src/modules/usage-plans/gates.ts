import type { FeatureGate, Permission, PlanProduct } from '@harbor/shared';

/** The permission and feature gate of a product's user routes; its admin routes keep the gate (plans.admin). */
export const GATES: Record<PlanProduct, { access: Permission; feature: FeatureGate }> = {
  sms: { access: 'sms.use', feature: 'sms_campaigns' },
  dialer: { access: 'dialer.use', feature: 'dialer' },
};
