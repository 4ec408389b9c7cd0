/**
 * Offline email validation (no network, so no MX or mailbox probe): practical RFC 5321/5322 syntax, domain shape,
 * reserved and disposable domains, and common misspellings of big providers. "valid" therefore means "well-formed
 * and plausible", and the reply says the mailbox was not checked. See docs/decisions/offline-email-validation.md.
 */
import { ownValue } from '@harbor/shared';

export interface EmailCheck {
  valid: boolean;
  reasons: string[];
  suggestion: string | null;
}

/** RFC 2606/6761 names that can never receive mail. */
const RESERVED_TLDS = new Set(['test', 'example', 'invalid', 'localhost', 'local', 'internal']);
const RESERVED_DOMAINS = new Set(['example.com', 'example.net', 'example.org']);
/** Throwaway inbox services: syntactically fine, useless for a client record. */
const DISPOSABLE = new Set([
  'mailinator.com',
  'guerrillamail.com',
  '10minutemail.com',
  'tempmail.com',
  'temp-mail.org',
  'yopmail.com',
  'trashmail.com',
  'getnada.com',
  'sharklasers.com',
  'dispostable.com',
  'maildrop.cc',
]);
const PROVIDERS = ['gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'aol.com', 'icloud.com', 'comcast.net'];
/** Misspelled top-level domains seen on real forms. */
const TLD_TYPOS: Record<string, string> = { con: 'com', cmo: 'com', ocm: 'com', comm: 'com', om: 'com', nte: 'net' };

const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** Levenshtein distance, small strings only. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

export function checkEmail(input: string): EmailCheck {
  const email = input.trim();
  const reasons: string[] = [];
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1)
    return { valid: false, reasons: ['is missing the @ or a part around it'], suggestion: null };
  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  if (email.length > 254) reasons.push('is longer than 254 characters');
  if (local.length > 64) reasons.push('has a name part longer than 64 characters');
  if (local.split('.').some((atom) => !LOCAL_ATOM.test(atom))) {
    reasons.push('has characters or dots that are not allowed before the @');
  }
  const labels = domain.split('.');
  if (labels.length < 2 || labels.some((l) => !LABEL.test(l))) reasons.push('has a malformed domain');
  const tld = labels[labels.length - 1];
  if (!/^[a-z]{2,63}$/.test(tld) && !/^xn--[a-z0-9-]{1,59}$/.test(tld)) reasons.push('has an invalid top-level domain');
  if (RESERVED_TLDS.has(tld) || RESERVED_DOMAINS.has(domain))
    reasons.push('uses a reserved domain that cannot receive mail');
  if (DISPOSABLE.has(domain)) reasons.push('uses a disposable mailbox service');

  let suggestion: string | null = null;
  const fixedTld = ownValue(TLD_TYPOS, tld);
  const candidate = fixedTld ? [...labels.slice(0, -1), fixedTld].join('.') : domain;
  const near = PROVIDERS.find((p) => p !== candidate && distance(p, candidate) <= 2 && candidate.length >= 6);
  if (near || fixedTld) {
    const fixed = near ?? candidate;
    if (fixed !== domain) {
      suggestion = `${local}@${fixed}`;
      reasons.push(`looks like a misspelling of ${fixed}`);
    }
  }
  return { valid: reasons.length === 0, reasons, suggestion };
}
