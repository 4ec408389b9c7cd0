/**
 * Calls of the softphone (issue 13):
 *
 * - `calls`: one per call a person places or takes; `room` is the provider's handle on it (the Twilio conference SID
 *   or the lab's SIP Call-ID); `recording` is what the server last made true (spec §4: the browser's state changes
 *   only on the server's answer); the TPMO disclaimer's moment into the call.
 * - `call_legs`: each provider leg (the browser and the carrier), by its provider id; a carrier leg is billed once,
 *   per started minute, when it completes (`billed_minutes`, the wallet's key `call:<call>:<leg sid>`).
 * - `call_recordings`: each finished recording, kept through the storage port for ten years (CMS).
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';
import { contacts } from '../contacts/schema.js';

export const calls = pgTable(
  'calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    contactId: bigint('contact_id', { mode: 'number' }).references(() => contacts.id),
    /** inbound | outbound */
    direction: text('direction').notNull(),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    callerCity: text('caller_city'),
    callerState: text('caller_state'),
    /** initiated | ringing | in-progress | completed | busy | no-answer | failed | canceled */
    status: text('status').notNull().default('initiated'),
    provider: text('provider').notNull(),
    room: text('room'),
    /** recording | paused | off */
    recording: text('recording').notNull().default('off'),
    maxSeconds: integer('max_seconds'),
    disclaimerAtS: integer('disclaimer_at_s'),
    errorCode: integer('error_code'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    durationS: integer('duration_s'),
    warning: text('warning'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('calls_user_created').on(t.companyId, t.userId, t.createdAt),
    index('calls_contact').on(t.companyId, t.contactId),
    // At most one live call per person: the second dial answers 'A Call is already active'.
    uniqueIndex('calls_one_active_per_user').on(t.userId).where(sql`status in ('initiated', 'ringing', 'in-progress')`),
    uniqueIndex('calls_room').on(t.provider, t.room),
  ],
);

export const callLegs = pgTable(
  'call_legs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    callId: bigint('call_id', { mode: 'number' })
      .notNull()
      .references(() => calls.id),
    sid: text('sid').notNull(),
    /** client (the agent's browser) | carrier (the phone network: billed) */
    kind: text('kind').notNull(),
    status: text('status').notNull().default('initiated'),
    durationS: integer('duration_s'),
    billedMinutes: integer('billed_minutes').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('call_legs_sid').on(t.sid), index('call_legs_call').on(t.callId)],
);

export const callRecordings = pgTable(
  'call_recordings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    callId: bigint('call_id', { mode: 'number' })
      .notNull()
      .references(() => calls.id),
    providerSid: text('provider_sid').notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    durationS: integer('duration_s'),
    retainUntil: timestamp('retain_until', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('call_recordings_sid').on(t.providerSid), index('call_recordings_call').on(t.callId)],
);
