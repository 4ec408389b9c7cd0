/** The only shape of one contact that leaves the server (detail page, create/update replies). */
import { type ContactDetail, formatPhone, GENDERS } from '@harbor/shared';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import {
  agentflowStatuses,
  agentflowStatusGroups,
  apiVendors,
  groups,
  pools,
  sources,
  statuses,
} from '../lookups/schema.js';
import type { ContactRow } from './access.js';
import { contactEvents, contacts, contactTags, tags } from './schema.js';

const TIMELINE_LIMIT = 100;
const fullName = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();

/** Whole years between the date of birth and today (UTC). */
export function ageOn(dob: string | null, today = new Date()): number | null {
  if (!dob) return null;
  const [y, m, d] = dob.split('-').map(Number);
  let age = today.getUTCFullYear() - y;
  const beforeBirthday = today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age--;
  return age;
}

export async function presentContact(db: Db, c: ContactRow): Promise<ContactDetail> {
  const owner = alias(users, 'owner');
  const linked = alias(contacts, 'linked');
  const [refs] = await db
    .select({
      status: { id: statuses.id, name: statuses.name, color: statuses.color },
      agentflow: { id: agentflowStatuses.id, name: agentflowStatuses.name, groupName: agentflowStatusGroups.name },
      source: { id: sources.id, name: sources.name },
      vendor: { id: apiVendors.id, name: apiVendors.vendorName },
      owner: { id: owner.id, first: owner.firstName, last: owner.lastName },
      pool: { id: pools.id, name: pools.name },
      group: { id: groups.id, name: groups.name },
      linked: { id: linked.id, number: linked.number, first: linked.firstName, last: linked.lastName },
    })
    .from(contacts)
    .leftJoin(statuses, eq(statuses.id, contacts.statusId))
    .leftJoin(agentflowStatuses, eq(agentflowStatuses.id, contacts.agentflowStatusId))
    .leftJoin(agentflowStatusGroups, eq(agentflowStatusGroups.id, agentflowStatuses.groupId))
    .leftJoin(sources, eq(sources.id, contacts.sourceId))
    .leftJoin(apiVendors, eq(apiVendors.id, contacts.apiVendorId))
    .leftJoin(owner, eq(owner.id, contacts.ownerId))
    .leftJoin(pools, eq(pools.id, contacts.poolId))
    .leftJoin(groups, eq(groups.id, contacts.groupId))
    // A linked contact is only named if it is still in the same company.
    .leftJoin(linked, and(eq(linked.id, contacts.linkedContactId), eq(linked.companyId, contacts.companyId)))
    .where(eq(contacts.id, c.id));
  const tagRows = await db
    .select({ id: tags.id, name: tags.name, color: tags.color })
    .from(contactTags)
    .innerJoin(tags, eq(tags.id, contactTags.tagId))
    .where(eq(contactTags.contactId, c.id))
    .orderBy(tags.name);
  const events = await db
    .select({
      id: contactEvents.id,
      kind: contactEvents.kind,
      data: contactEvents.data,
      createdAt: contactEvents.createdAt,
      actorId: users.id,
      actorFirst: users.firstName,
      actorLast: users.lastName,
    })
    .from(contactEvents)
    .leftJoin(users, eq(users.id, contactEvents.actorId))
    .where(eq(contactEvents.contactId, c.id))
    .orderBy(desc(contactEvents.id))
    .limit(TIMELINE_LIMIT);
  const [activity] = await db
    .select({ data: contactEvents.data, createdAt: contactEvents.createdAt })
    .from(contactEvents)
    .where(and(eq(contactEvents.contactId, c.id), inArray(contactEvents.kind, ['activity'])))
    .orderBy(desc(contactEvents.id))
    .limit(1);

  return {
    id: c.id,
    number: c.number,
    type: c.type as ContactDetail['type'],
    first_name: c.firstName,
    last_name: c.lastName,
    full_name: fullName(c.firstName, c.lastName),
    email: c.email,
    email_status: c.emailStatus as ContactDetail['email_status'],
    phone: c.phone ? formatPhone(c.phone) : null,
    phone_type: c.phoneType,
    secondary_phone: c.secondaryPhone ? formatPhone(c.secondaryPhone) : null,
    date_of_birth: c.dateOfBirth,
    age: ageOn(c.dateOfBirth),
    gender: c.gender,
    gender_label: GENDERS.find((g) => g.value === c.gender)?.label ?? null,
    language: c.language,
    address: c.address,
    address2: c.address2,
    city: c.city,
    state: c.state,
    zip: c.zip,
    county: c.county,
    medicare_number: c.medicareNumber,
    part_a_effective: c.partAEffective,
    part_b_effective: c.partBEffective,
    status: refs.status?.id ? refs.status : null,
    agentflow_status: refs.agentflow?.id
      ? { id: refs.agentflow.id, name: refs.agentflow.name ?? '', group_name: refs.agentflow.groupName ?? null }
      : null,
    source: refs.source?.id ? refs.source : null,
    api_vendor: refs.vendor?.id ? refs.vendor : null,
    category: c.category,
    owner: refs.owner?.id ? { id: refs.owner.id, name: fullName(refs.owner.first, refs.owner.last) } : null,
    pool: refs.pool?.id ? refs.pool : null,
    group: refs.group?.id ? refs.group : null,
    tags: tagRows,
    linked_contact: refs.linked?.id
      ? { id: refs.linked.id, number: refs.linked.number, name: fullName(refs.linked.first, refs.linked.last) }
      : null,
    note: c.note,
    is_new: c.isNew,
    last_activity: activity
      ? { type: String(activity.data.type ?? 'other'), at: activity.createdAt.toISOString() }
      : null,
    deleted_at: c.deletedAt?.toISOString() ?? null,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    timeline: events.map((e) => ({
      id: e.id,
      kind: e.kind,
      data: e.data,
      actor: e.actorId ? { id: e.actorId, name: fullName(e.actorFirst, e.actorLast) } : null,
      created_at: e.createdAt.toISOString(),
    })),
  };
}

/** Used where a reply needs the row again after a write in the same transaction. */
export const reloadContact = async (db: Db, id: number) =>
  (await db.select().from(contacts).where(eq(contacts.id, id)))[0];
