/**
 * The shell's live connection and its NotificationsChannel handler: a chunk of its own that the shell loads once it
 * has rendered (useLive.ts), because parsing with the shared schema brings zod, which no page needs to render
 * (scripts/check-bundle.mjs).
 */
import { NOTIFICATIONS_CHANNEL, NotificationsChannelMessage } from '@harbor/shared';
import { addNotification } from '../stores/notifications';
import { openProcessNotification } from '../stores/processNotification';
import { cable, subscribe } from './cable';
import { emitTransferUpdate } from './transfers';

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

/** Subscribes the notifications channel and opens the connection; answers the function that undoes both. */
export function startLiveConnection(): () => void {
  const unsubscribe = subscribe(NOTIFICATIONS_CHANNEL, {}, handleNotificationsMessage);
  cable.start();
  return () => {
    unsubscribe();
    cable.stop();
  };
}
