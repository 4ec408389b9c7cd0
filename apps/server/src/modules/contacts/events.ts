/** The contact timeline: every change to a contact or its sub-records appends one contact_events row. */
import type { Db } from '../../platform/db/client.js';
import { contactEvents } from './schema.js';

export interface ContactEventInput {
  companyId: number;
  contactId: number;
  kind: string;
  actorId: number | null;
  data?: Record<string, unknown>;
}

export async function recordContactEvent(db: Db, e: ContactEventInput) {
  await db.insert(contactEvents).values({
    companyId: e.companyId,
    contactId: e.contactId,
    kind: e.kind,
    actorId: e.actorId,
    data: e.data ?? {},
  });
}
