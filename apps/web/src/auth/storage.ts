/**
 * Browser storage owned by the client. Every key starts with `harbor:` so logout can sweep them all, and carries
 * SYSTEM_VERSION so a deployment that changes a stored shape never reads an older one (spec §9).
 */
import { type CurrentUser, SYSTEM_VERSION } from '@harbor/shared';

export const STORAGE_PREFIX = 'harbor:';

export function storageKey(name: string): string {
  return `${STORAGE_PREFIX}${SYSTEM_VERSION}:${name}`;
}

const POST_LOGIN_TARGET = storageKey('post_login_target');
const LOGIN_STACK = storageKey('login_stack');

/** Only contacts pages are worth returning to after a forced sign-in (spec §2). */
export function rememberPostLoginTarget(path: string): void {
  if (!/^\/contacts(\/|\?|$)/.test(path)) return;
  try {
    sessionStorage.setItem(POST_LOGIN_TARGET, path);
  } catch {
    // Storage can be disabled (private mode, quota); signing in still works, it just lands on /.
  }
}

/** Read once, then removed, so a later ordinary sign-in does not jump to a stale page. */
export function takePostLoginTarget(): string | null {
  try {
    const target = sessionStorage.getItem(POST_LOGIN_TARGET);
    sessionStorage.removeItem(POST_LOGIN_TARGET);
    return target?.startsWith('/contacts') ? target : null;
  } catch {
    return null;
  }
}

/** A local mirror of the server's login stack; the server's copy is the one that counts. */
export function saveLoginStack(stack: CurrentUser['login_stack']): void {
  try {
    if (stack.length) localStorage.setItem(LOGIN_STACK, JSON.stringify(stack));
    else localStorage.removeItem(LOGIN_STACK);
  } catch {
    // Only a mirror; losing it costs nothing.
  }
}

/** Logout: saved searches, filters and the login stack go, in both storages (spec §4). */
export function clearClientStorage(): void {
  for (const storage of [localStorage, sessionStorage]) {
    try {
      const keys: string[] = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (key?.startsWith(STORAGE_PREFIX)) keys.push(key);
      }
      for (const key of keys) storage.removeItem(key);
    } catch {
      // Nothing stored we could not reach.
    }
  }
}
