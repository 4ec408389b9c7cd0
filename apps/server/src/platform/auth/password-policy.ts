/**
 * What a new password must be beyond its length (8 to 256 characters, checked by the shared schema): not a common
 * or breached password, not one character repeated, not the account's own name or email. Checked on every path
 * that sets a password (reset by token, change, an admin creating a user). See docs/decisions/password-policy.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { invalid } from '../http/errors.js';

const LIST_FILE = path.join(import.meta.dirname, 'common-passwords.txt');
/** Built by scripts/build-common-passwords.mjs; loaded on first use (~38k entries, ~3 MB), not at start-up. */
let common: Set<string> | null = null;

function commonPasswords(): Set<string> {
  common ??= new Set(fs.readFileSync(LIST_FILE, 'utf8').split('\n').filter(Boolean));
  return common;
}

export const TOO_COMMON =
  'is too common: it appears in lists of leaked passwords. Choose another, for example a few unrelated words.';
export const TOO_SIMPLE = 'is too simple: use more different characters.';
export const TOO_PERSONAL = 'must not contain your name, your username or your email.';

export interface PasswordContext {
  email?: string | null;
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/** The problem with `password` as a message for the `password` field, or null when it is acceptable. */
export function passwordProblem(password: string, who: PasswordContext = {}): string | null {
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return TOO_COMMON;
  if (new Set(lower).size < 4) return TOO_SIMPLE;
  const words = [who.email?.split('@')[0], who.username, who.firstName, who.lastName]
    .map((w) => (w ?? '').trim().toLowerCase())
    .filter((w) => w.length >= 4);
  if (words.some((w) => lower.includes(w))) return TOO_PERSONAL;
  return null;
}

/** 422 on `password` with the reason, for the paths that set one. */
export function assertAcceptablePassword(password: string, who: PasswordContext = {}) {
  const problem = passwordProblem(password, who);
  if (problem) throw invalid('password', problem);
}
