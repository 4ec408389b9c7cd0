import { describe, expect, it } from 'vitest';
import { FEATURE_GATES, featureGateOpen, featureGateRefusal, smsFeatureRefusal } from './feature-gates.js';
import { resolveFeatures } from './features.js';

const on = resolveFeatures({ wallet_feature: true });
const premium = { active: true, plan: 'premium' };

describe('the SMS feature gate (spec 2 §6: non-basic, wallet enabled, active premium Max Plus)', () => {
  it('opens only when all three hold', () => {
    expect(featureGateOpen({ basic: false, features: on, maxPlus: premium }, 'sms_feature')).toBe(true);
    expect(FEATURE_GATES).toContain('sms_feature');
  });

  it('says which condition closes it', () => {
    expect(smsFeatureRefusal({ basic: true, features: on, maxPlus: premium })).toBe(
      'Texting is not part of a basic account.',
    );
    expect(smsFeatureRefusal({ basic: false, features: { ...on, wallet_feature: false }, maxPlus: premium })).toMatch(
      /wallet, which is turned off/,
    );
    for (const maxPlus of [
      undefined,
      null,
      { active: false, plan: 'premium' },
      { active: true, plan: 'standard' },
      { active: true, plan: null },
    ]) {
      expect(featureGateRefusal({ basic: false, features: on, maxPlus }, 'sms_feature')).toBe(
        'Texting needs an active Max Plus Premium subscription.',
      );
    }
  });
});
