/**
 * What other areas use of the consent record. Every send path (email, SMS, calls) calls `checkConsent` at send time
 * and stores the verdict's `basis` with the send; opt-outs and opt-ins from any channel go through `recordConsent`
 * (the unsubscribe link, an SMS STOP or START, the dialer's do-not-call); bounces and complaints through
 * `suppressAddresses`. docs/decisions/consent-record.md has the rules.
 */
export {
  addressSql,
  type ConsentAsk,
  type ConsentVerdict,
  checkConsent,
  consentRowsSql,
  countConsent,
  normaliseAddress,
} from './check.js';
export {
  type ConsentChange,
  grantPermissionToContact,
  mergeConsent,
  recordConsent,
  revokePermissionToContact,
  suppressAddresses,
} from './record.js';
export { consentModule } from './routes.js';
