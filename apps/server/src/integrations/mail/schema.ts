import { pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** What the local SMTP stand-in received, for the development inbox page. Never written in production mode. */
export const devMails = pgTable('dev_mails', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  from: text('from').notNull(),
  subject: text('subject').notNull(),
  text: text('text'),
  html: text('html'),
  /** The tag of the signed-out browser that caused the mail (OutgoingMail.viewer), which alone may read it signed out. */
  viewer: text('viewer'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
