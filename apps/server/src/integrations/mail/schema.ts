import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** What the local SMTP stand-in received, for the development inbox page. Never written in production mode. */
export const devMails = pgTable(
  'dev_mails',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    from: text('from').notNull(),
    subject: text('subject').notNull(),
    text: text('text'),
    html: text('html'),
    /** The tag of the signed-out browser that caused the mail (OutgoingMail.viewer), which alone may read it signed out. */
    viewer: text('viewer'),
    /** The Message-ID, the envelope sender (VERP return path) and the X-SMTPAPI unique_args, as a provider keeps them. */
    messageId: text('message_id'),
    returnPath: text('return_path'),
    uniqueArgs: jsonb('unique_args').$type<Record<string, unknown>>(),
    headers: jsonb('headers').$type<Record<string, string>>(),
    /** When the stand-in's signed events for this message were accepted by the app (null: still to post). */
    eventsPostedAt: timestamp('events_posted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dev_mails_events_pending').on(t.id).where(sql`events_posted_at is null and unique_args is not null`)],
);
