/**
 * Click to call from anywhere (a contact, the contacts list, a conversation): opens the softphone with the number
 * and dials. The panel, loaded after the shell renders, registers the dialer; until then the request waits.
 */
import { type CurrentUser, can } from '@harbor/shared';
import { subjectOf } from '../layout/nav';
import { getPhone, setPhone } from './store';

/**
 * The header's place for the phone's launcher at phone width (AppLayout renders it, Softphone fills it): floating
 * over a 390 px page it covered whatever sat in the bottom corner (the wallet's top-up form).
 */
export const PHONE_SLOT_ID = 'softphone-launcher';

/**
 * Who gets the phone: the dialer's permission and a verified dialer number, without which spec §4 never enables
 * it (docs/decisions/voice-provider.md). Others see numbers as text.
 */
export function phoneShown(user: CurrentUser): boolean {
  return can(subjectOf(user), 'dialer.use') && !!user.profile.dialer_verified_phone_number;
}

type Dialer = (number: string, contactNumber?: number) => Promise<void>;
let dialer: Dialer | null = null;
let pending: { number: string; contactNumber?: number } | null = null;

export function registerDialer(d: Dialer | null) {
  dialer = d;
  if (d && pending) {
    const p = pending;
    pending = null;
    void d(p.number, p.contactNumber);
  }
}

export function requestDial(number: string, contactNumber?: number) {
  setPhone({ open: true, idleTab: 'keypad', number, contactNumber: contactNumber ?? null, error: null });
  if (getPhone().phase !== 'idle') return;
  if (dialer) void dialer(number, contactNumber);
  else pending = { number, contactNumber };
}
