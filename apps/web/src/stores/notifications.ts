/** Notifications received on the live channel, newest first, kept for this browser session only. */
import { createStore, useStore } from './createStore';

export interface AppNotification {
  id: string;
  title: string;
  body: string;
  link: string | null;
  receivedAt: Date;
  read: boolean;
}

export interface IncomingNotification {
  title: string;
  body: string;
  link?: string | null;
}

const MAX_KEPT = 50;

export const notificationsStore = createStore<AppNotification[]>([]);

let sequence = 0;

export function addNotification(incoming: IncomingNotification, now: Date = new Date()): AppNotification {
  sequence += 1;
  const item: AppNotification = {
    id: `${now.getTime()}-${sequence}`,
    title: incoming.title,
    body: incoming.body,
    link: incoming.link ?? null,
    receivedAt: now,
    read: false,
  };
  notificationsStore.set((list) => [item, ...list].slice(0, MAX_KEPT));
  return item;
}

export function markAllRead(): void {
  notificationsStore.set((list) => (list.some((n) => !n.read) ? list.map((n) => ({ ...n, read: true })) : list));
}

export function clearNotifications(): void {
  notificationsStore.set([]);
}

/** Spec §9: notification times in en-US 12-hour form. */
export function formatNotificationTime(date: Date): string {
  try {
    return date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', hour12: true });
  } catch {
    console.error('Failed to format timestamp');
    return '';
  }
}

export function useNotifications() {
  const list = useStore(notificationsStore);
  return { list, unread: list.filter((n) => !n.read).length };
}
