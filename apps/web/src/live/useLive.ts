import { useEffect, useSyncExternalStore } from 'react';
import { addNotification, type IncomingNotification } from '../stores/notifications';
import { type CableState, cable, subscribe } from './cable';

export function useCableState(): CableState {
  return useSyncExternalStore(
    (onChange) => cable.onStateChange(onChange),
    () => cable.getState(),
    () => cable.getState(),
  );
}

function isNotification(message: unknown): message is IncomingNotification {
  const m = message as Partial<IncomingNotification> | null;
  return !!m && typeof m.title === 'string' && typeof m.body === 'string';
}

/**
 * Mounted by the signed-in shell only, so public pages never open the live connection. The notifications channel
 * belongs to the shell; feature channels subscribe on their own through `subscribe`.
 */
export function useLiveConnection(): void {
  useEffect(() => {
    const unsubscribe = subscribe('NotificationsChannel', {}, (message) => {
      if (isNotification(message)) addNotification(message);
      else console.warn('Live connection: unexpected notification payload');
    });
    cable.start();
    return () => {
      unsubscribe();
      cable.stop();
    };
  }, []);
}
