/**
 * The shell's live connection and its NotificationsChannel handler: a chunk of its own that the shell loads once it
 * has rendered (useLive.ts), because parsing with the shared schema brings zod, which no page needs to render
 * (scripts/check-bundle.mjs).
 */

import {
  NOTIFICATIONS_CHANNEL,
  NotificationsChannelMessage,
  SMS_CHANNEL,
  SMS_NOTIFICATION_DELAY_MS,
  SMS_NOTIFICATION_TITLE,
  SmsChannelMessage,
  smsToastText,
} from '@harbor/shared';
import { notifications } from '@mantine/notifications';
import { addNotification } from '../stores/notifications';
import { openProcessNotification } from '../stores/processNotification';
import { cable, subscribe } from './cable';
import { emitSmsMessage } from './sms';
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

/** An SmsChannel message: the inbox updates at once; the toast and the notification follow after 500 ms (spec §9). */
export function handleSmsMessage(message: unknown): void {
  const parsed = SmsChannelMessage.safeParse(message);
  if (!parsed.success) {
    console.warn('Live connection: unexpected SMS payload');
    return;
  }
  const m = parsed.data;
  emitSmsMessage(m);
  if (m.type !== 'sms_inbound') return;
  const link = m.contact_id ? `/sms?contact=${m.contact_id}` : '/sms';
  setTimeout(() => {
    notifications.show({ title: m.contact_name ?? undefined, message: smsToastText(m.phone_number) });
    addNotification({
      title: SMS_NOTIFICATION_TITLE,
      body: `${m.contact_name ?? m.phone_number}: ${m.message.body}`,
      link,
    });
  }, SMS_NOTIFICATION_DELAY_MS);
}

/** Subscribes the notifications channel and opens the connection; answers the function that undoes both. */
export function startLiveConnection(): () => void {
  const unsubscribe = subscribe(NOTIFICATIONS_CHANNEL, {}, handleNotificationsMessage);
  const unsubscribeSms = subscribe(SMS_CHANNEL, {}, handleSmsMessage);
  cable.start();
  return () => {
    unsubscribe();
    unsubscribeSms();
    cable.stop();
  };
}
