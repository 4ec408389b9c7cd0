/**
 * Transfer updates from the NotificationsChannel (TransferAttemptMessage), for the pages that show transfers: one
 * listener set for the app, fed by the shell's subscription (useLive.ts).
 */
import type { TransferAttemptMessage } from '@harbor/shared';

const listeners = new Set<(m: TransferAttemptMessage) => void>();

export function onTransferUpdate(listener: (m: TransferAttemptMessage) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function emitTransferUpdate(m: TransferAttemptMessage): void {
  for (const l of listeners) l(m);
}
