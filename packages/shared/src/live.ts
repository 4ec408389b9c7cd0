/**
 * What the live connection (/cable) carries, per channel: one zod schema each, shared by the server (which validates
 * every message before publishing it, platform/live/publish.ts) and the browser (which parses what it receives with
 * the same schema). A shape the browser would drop can therefore never leave the server.
 */
import { z } from 'zod';
import { BROADCASTS_CHANNEL, BroadcastProgressMessage } from './api/broadcasts.js';
import { CALLS_CHANNEL, CallsChannelMessage } from './api/dialer.js';
import { IMPORTS_CHANNEL, ImportProgressMessage } from './api/imports.js';
import { SMS_CHANNEL, SmsChannelMessage } from './api/sms.js';

export const NOTIFICATIONS_CHANNEL = 'NotificationsChannel';

/** A notification for the header's notifications area. */
export const UserNotificationMessage = z.object({
  type: z.literal('notification'),
  title: z.string().min(1),
  body: z.string(),
  link: z.string().nullable().optional(),
});
export type UserNotificationMessage = z.infer<typeof UserNotificationMessage>;

export const TRANSFER_ATTEMPT_STATUSES = ['pending', 'processing', 'complete', 'failed'] as const;

/**
 * A bulk transfer moved on (finished, failed, or was reverted): the transfers page refreshes that attempt, and the
 * person who started it gets a notification (title, body, link).
 */
export const TransferAttemptMessage = z.object({
  type: z.literal('transfer_attempt'),
  id: z.number().int().positive(),
  status: z.enum(TRANSFER_ATTEMPT_STATUSES),
  reverting: z.boolean(),
  reverted: z.boolean(),
  processed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  title: z.string().min(1),
  body: z.string(),
  link: z.string(),
});
export type TransferAttemptMessage = z.infer<typeof TransferAttemptMessage>;

/** Everything published on a user's NotificationsChannel stream. */
export const NotificationsChannelMessage = z.discriminatedUnion('type', [
  UserNotificationMessage,
  TransferAttemptMessage,
]);
export type NotificationsChannelMessage = z.infer<typeof NotificationsChannelMessage>;

/** The schema of every live channel, by the channel name the browser subscribes with. */
export const LIVE_MESSAGES = {
  [NOTIFICATIONS_CHANNEL]: NotificationsChannelMessage,
  [IMPORTS_CHANNEL]: ImportProgressMessage,
  [BROADCASTS_CHANNEL]: BroadcastProgressMessage,
  [SMS_CHANNEL]: SmsChannelMessage,
  [CALLS_CHANNEL]: CallsChannelMessage,
} as const;
export type LiveChannel = keyof typeof LIVE_MESSAGES;
export type LiveMessage<C extends LiveChannel> = z.infer<(typeof LIVE_MESSAGES)[C]>;
