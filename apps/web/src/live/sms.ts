/**
 * The SMS channel of /cable (spec §7): inbound texts and status changes, for the inbox page, fed by the shell's
 * subscription (connection.ts). An inbound text also shows, after the spec's 500 ms, the toast 'New message from
 * {phone}' and a notification titled 'New Message'.
 */
import type { SmsChannelMessage } from '@harbor/shared';

const listeners = new Set<(m: SmsChannelMessage) => void>();

export function onSmsMessage(listener: (m: SmsChannelMessage) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function emitSmsMessage(m: SmsChannelMessage): void {
  for (const l of listeners) l(m);
}
