import { NOTIFICATIONS_CHANNEL, NotificationsChannelMessage } from '@harbor/shared';
import { useEffect, useSyncExternalStore } from 'react';
import { addNotification } from '../stores/notifications';
import { openProcessNotification } from '../stores/processNotification';
import { type CableState, cable, subscribe } from './cable';
import { emitTransferUpdate } from './transfers';

export function useCableState(): CableState {
  return useSyncExternalStore(
    (onChange) => cable.onStateChange(onChange),
    () => cable.getState(),
    () => cable.getState(),
  );
}

/** A NotificationsChannel message, parsed with the schema the server validated it with before publishing. */
export function handleNotificationsMessage(message: unknown): void {
  const parsed = NotificationsChannelMessage.safeParse(message);
  if (!parsed.success) {
    console.warn('Live connection: unexpected notification payload');
    return;
  }
  const m = parsed.data;
  addNotification({ title: m.title, body: m.body, link: m.link });
  if (m.type === 'transfer_attempt') {
    emitTransferUpdate(m);
    if (!m.reverting) {
      openProcessNotification({
        text: m.body,
        status: m.status === 'failed' || m.title === 'Revert failed' ? 'error' : 'success',
        linkUrl: m.link,
        linkText: 'View transfer',
      });
    }
  }
}

/**
 * Mounted by the signed-in shell only, so public pages never open the live connection. The notifications channel
 * belongs to the shell; feature channels subscribe on their own through `subscribe`.
 */
export function useLiveConnection(): void {
  useEffect(() => {
    const unsubscribe = subscribe(NOTIFICATIONS_CHANNEL, {}, handleNotificationsMessage);
    cable.start();
    return () => {
      unsubscribe();
      cable.stop();
    };
  }, []);
}
