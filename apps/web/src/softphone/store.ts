/**
 * The softphone's state (spec §4 "Phone panel"), outside React so the contact page's call buttons, the live call
 * channel and the voice engine all move the same panel. Small on purpose: pages import `requestDial` from
 * ./dial.ts, which does not pull the panel or the engine into their download.
 */

import type { CallItem, DeviceToken } from '@harbor/shared';
import { useSyncExternalStore } from 'react';

export type Phase = 'idle' | 'incoming' | 'connecting' | 'ringing' | 'active';

export interface Incoming {
  call_id: number;
  phone_number: string;
  contact_numbers: number[];
}

export interface PhoneState {
  open: boolean;
  /** Panel position (px from the bottom-right corner), kept while dragging. */
  right: number;
  bottom: number;
  /** Idle tabs: keypad | recent; in a call: call | keypad. */
  idleTab: 'keypad' | 'recent';
  callTab: 'call' | 'keypad';
  phase: Phase;
  number: string;
  contactNumber: number | null;
  dtmf: string;
  muted: boolean;
  call: CallItem | null;
  /** When the call was answered (ms), for the one-second mm:ss counter. */
  answeredAt: number | null;
  maxSeconds: number | null;
  incoming: Incoming | null;
  token: DeviceToken | null;
  /** READY or DISCONNECTED (spec §4 device status). */
  device: 'READY' | 'DISCONNECTED';
  error: string | null;
  warning: string | null;
  busy: boolean;
}

const initial: PhoneState = {
  open: false,
  right: 16,
  bottom: 16,
  idleTab: 'keypad',
  callTab: 'call',
  phase: 'idle',
  number: '',
  contactNumber: null,
  dtmf: '',
  muted: false,
  call: null,
  answeredAt: null,
  maxSeconds: null,
  incoming: null,
  token: null,
  device: 'DISCONNECTED',
  error: null,
  warning: null,
  busy: false,
};

let state: PhoneState = initial;
const listeners = new Set<() => void>();

export function getPhone(): PhoneState {
  return state;
}

export function setPhone(patch: Partial<PhoneState> | ((s: PhoneState) => Partial<PhoneState>)) {
  state = { ...state, ...(typeof patch === 'function' ? patch(state) : patch) };
  for (const l of listeners) l();
}

/** Spec §4: hangup, disconnect or cancel end the call and reset the counter and the DTMF text. */
export function endCall(patch: Partial<PhoneState> = {}) {
  setPhone({
    phase: 'idle',
    call: null,
    answeredAt: null,
    maxSeconds: null,
    dtmf: '',
    muted: false,
    incoming: null,
    callTab: 'call',
    busy: false,
    ...patch,
  });
}

export function subscribePhone(l: () => void) {
  listeners.add(l);
  return () => void listeners.delete(l);
}

export function usePhone(): PhoneState {
  return useSyncExternalStore(subscribePhone, getPhone, getPhone);
}

/** mm:ss of a number of seconds (spec §4: the one-second counter). */
export function mmss(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** For tests: back to the first state. */
export function resetPhone() {
  state = initial;
  for (const l of listeners) l();
}
