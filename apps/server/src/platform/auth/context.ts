import { type Features, type Role, resolveFeatures, type Subject, type Variant } from '@harbor/shared';
import type { CompanyRow, UserRow } from '../db/schema.js';
import type { sessions } from './schema.js';

export type SessionRow = typeof sessions.$inferSelect;

/** Who is calling: the user, their company (the tenant), the session or API key, and the resolved flags. */
export interface AuthContext {
  user: UserRow;
  company: CompanyRow;
  session: SessionRow | null;
  apiKey: { id: number } | null;
  features: Features;
  subject: Subject;
}

export function buildAuthContext(
  user: UserRow,
  company: CompanyRow,
  session: SessionRow | null,
  apiKey: { id: number } | null = null,
): AuthContext {
  const features = resolveFeatures(company.features, user.features);
  return {
    user,
    company,
    session,
    apiKey,
    features,
    subject: {
      roles: user.roles as Role[],
      basic: user.basic,
      features,
      variant: company.variant as Variant,
      maxPlus: { active: user.maxPlusActive, plan: user.maxPlusPlan },
    },
  };
}
