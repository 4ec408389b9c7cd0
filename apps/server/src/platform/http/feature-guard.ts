/**
 * Feature gates of routes (docs/decisions/feature-flag-enforcement.md): a route that belongs to a feature declares
 * `config.feature`; when the caller's flags (or the basic flag) close that gate the pipeline answers 403 naming the
 * feature, whatever the route's permission says. The navigation hiding a screen is only a courtesy; this is the rule.
 */
import { ACCESS_DENIED, type FeatureGate, featureGateRefusal } from '@harbor/shared';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

/** Runs before the permission check, so a refusal says which feature is off rather than only "Access denied!". */
export function requireFeature(req: FastifyRequest, feature: FeatureGate | undefined) {
  if (!feature || !req.auth) return; // no session: authorize answers 401
  const refusal = featureGateRefusal(req.auth.subject, feature);
  if (refusal) throw new HttpError(403, { user: [ACCESS_DENIED], feature: [refusal] });
}
