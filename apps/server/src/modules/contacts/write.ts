/**
 * Creating and changing a contact from the strict body of POST/PATCH /v1/contacts[/{id}] (and quick_update): map the
 * fields to columns (phones normalised per spec §5, MBI upper-cased), check every referenced id against the caller's
 * company and reach, write the row, its tags and one timeline event listing what changed.
 */
import { type ContactFields, normalizeMbi, normalizePhone } from '@harbor/shared';
import { eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { assertOwnerAssignable, assertPoolAssignable, assertRefs, assertTags, type ContactRow } from './access.js';
import { recordContactEvent } from './events.js';
import { contacts, contactTags } from './schema.js';

type Columns = Partial<typeof contacts.$inferInsert>;

const blank = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : v);

/** Body fields -> column values; undefined means "not given, leave alone". */
export function toColumns(f: ContactFields): Columns {
  const phone = (v: string | null | undefined) => (v === undefined ? undefined : v ? normalizePhone(v) : null);
  const cols: Columns = {
    firstName: f.first_name,
    lastName: f.last_name,
    email: blank(f.email),
    phone: phone(f.phone),
    phoneType: f.phone_type,
    secondaryPhone: phone(f.secondary_phone),
    dateOfBirth: f.date_of_birth,
    gender: f.gender,
    language: f.language,
    address: blank(f.address),
    address2: blank(f.address2),
    city: blank(f.city),
    state: f.state,
    zip: blank(f.zip),
    county: blank(f.county),
    medicareNumber:
      f.medicare_number === undefined ? undefined : f.medicare_number ? normalizeMbi(f.medicare_number) : null,
    partAEffective: f.part_a_effective,
    partBEffective: f.part_b_effective,
    statusId: f.status_id,
    agentflowStatusId: f.agentflow_status_id,
    sourceId: f.source_id,
    apiVendorId: f.api_vendor_id,
    category: blank(f.category),
    type: f.type,
    ownerId: f.owner_id,
    poolId: f.pool_id,
    groupId: f.group_id,
    note: blank(f.note),
  };
  for (const k of Object.keys(cols) as Array<keyof Columns>) if (cols[k] === undefined) delete cols[k];
  return cols;
}

/** Every id the body names must be the company's and within the caller's reach. */
async function checkReferences(db: Db, auth: AuthContext, f: ContactFields, current: ContactRow | null) {
  await assertRefs(db, auth.company.id, {
    status_id: f.status_id,
    agentflow_status_id: f.agentflow_status_id,
    source_id: f.source_id,
    api_vendor_id: f.api_vendor_id,
    group_id: f.group_id,
  });
  if (f.owner_id !== undefined && f.owner_id !== current?.ownerId) await assertOwnerAssignable(db, auth, f.owner_id);
  if (f.pool_id && f.pool_id !== current?.poolId) await assertPoolAssignable(db, auth, f.pool_id);
  if (f.tag_ids) await assertTags(db, auth.company.id, f.tag_ids);
}

async function replaceTags(db: Db, contactId: number, tagIds: number[]) {
  await db.delete(contactTags).where(eq(contactTags.contactId, contactId));
  const unique = [...new Set(tagIds)];
  if (unique.length) await db.insert(contactTags).values(unique.map((tagId) => ({ contactId, tagId })));
}

export async function createContact(db: Db, auth: AuthContext, f: ContactFields): Promise<ContactRow> {
  await checkReferences(db, auth, f, null);
  const cols = toColumns(f);
  const [row] = await db
    .insert(contacts)
    .values({
      ...cols,
      companyId: auth.company.id,
      ownerId: cols.ownerId ?? auth.user.id,
      createdBy: auth.user.id,
      // The creator has just seen it; "new" marks contacts that arrive by import, API or transfer.
      isNew: false,
    })
    .returning();
  if (f.tag_ids) await replaceTags(db, row.id, f.tag_ids);
  await recordContactEvent(db, {
    companyId: auth.company.id,
    contactId: row.id,
    kind: 'created',
    actorId: auth.user.id,
    data: { fields: Object.keys(f) },
  });
  return row;
}

/** Applies the given fields; records a timeline event with from/to of each changed column (nothing if none). */
export async function updateContact(
  db: Db,
  auth: AuthContext,
  current: ContactRow,
  f: ContactFields,
  kind = 'updated',
): Promise<ContactRow> {
  await checkReferences(db, auth, f, current);
  const cols = toColumns(f);
  if (cols.email !== undefined && cols.email !== current.email) cols.emailStatus = 'unknown';
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [k, v] of Object.entries(cols)) {
    const before = current[k as keyof ContactRow];
    if (before !== v && k !== 'emailStatus') changes[k] = { from: before ?? null, to: v ?? null };
  }
  let row = current;
  if (Object.keys(changes).length) {
    [row] = await db
      .update(contacts)
      .set({ ...cols, updatedAt: new Date() })
      .where(eq(contacts.id, current.id))
      .returning();
  }
  if (f.tag_ids) {
    await replaceTags(db, current.id, f.tag_ids);
    changes.tags = { from: null, to: [...new Set(f.tag_ids)] };
  }
  if (Object.keys(changes).length) {
    await recordContactEvent(db, {
      companyId: auth.company.id,
      contactId: current.id,
      kind,
      actorId: auth.user.id,
      data: { changes },
    });
  }
  return row;
}
