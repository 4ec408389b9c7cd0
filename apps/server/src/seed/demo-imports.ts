/**
 * Demo imports: one small completed import (two leads) and a saved mapping in the recruiting company, so both demo
 * companies have import records and the permission matrix finds another tenant's attempt and setting.
 */
import { and, eq } from 'drizzle-orm';
import { contacts } from '../modules/contacts/schema.js';
import { importAttempts, importRows, importSettings } from '../modules/imports/schema.js';
import type { Db } from '../platform/db/client.js';
import { users } from '../platform/db/schema.js';

export async function seedDemoImports(db: Db, companyId: number) {
  const [agent] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.accountType, 'agent')));
  const leads = await db
    .insert(contacts)
    .values([
      { companyId, ownerId: agent.id, firstName: 'Nora', lastName: 'Quinn', phone: '15550100001', createdBy: agent.id },
      { companyId, ownerId: agent.id, firstName: 'Owen', lastName: 'Price', phone: '15550100002', createdBy: agent.id },
    ])
    .returning({ id: contacts.id });
  const mapping = { 'First Name': 'first_name', 'Last Name': 'last_name', Phone: 'phone' };
  const [attempt] = await db
    .insert(importAttempts)
    .values({
      companyId,
      userId: agent.id,
      ownerId: agent.id,
      fileName: 'recruits-march.csv',
      fileSize: 96,
      status: 'completed',
      options: { fields: mapping },
      checkpoint: { phase: 'written' },
      total: 2,
      processed: 2,
      created: 2,
      finishedAt: new Date('2026-03-02T15:00:00Z'),
    })
    .returning({ id: importAttempts.id });
  await db
    .insert(importRows)
    .values(leads.map((c, i) => ({ attemptId: attempt.id, rowNo: i + 2, action: 'create', contactId: c.id })));
  await db
    .insert(importSettings)
    .values({ companyId, userId: agent.id, name: 'Recruit list', data: { fields: mapping } });
}
