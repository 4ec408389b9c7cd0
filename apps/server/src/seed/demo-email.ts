/**
 * Demo email: two templates, a birthday trigger (compliant, automatic, yearly) and a finished broadcast per company,
 * so the admin screens and a person trying Harbor have something to open (and every area has a record per tenant).
 */
import { and, asc, eq } from 'drizzle-orm';
import { broadcasts } from '../modules/broadcasts/schema.js';
import { campaignTriggers } from '../modules/campaign-triggers/schema.js';
import { emailTemplates } from '../modules/email/schema.js';
import type { Db } from '../platform/db/client.js';
import { users } from '../platform/db/schema.js';

export async function seedDemoEmail(db: Db, companyId: number) {
  const [admin] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.accountType, 'admin')))
    .orderBy(asc(users.id))
    .limit(1);
  if (!admin) return;
  const [birthday, aep] = await db
    .insert(emailTemplates)
    .values([
      {
        companyId,
        name: 'Happy birthday',
        subject: 'Happy birthday, {{first_name}}!',
        bodyHtml:
          '<p>Hi {{first_name}},</p><p>Wishing you a wonderful birthday and a healthy year ahead.</p><p>{{agent_name}}<br>{{agent_phone}}</p>',
        category: 'birthday',
        createdBy: admin.id,
      },
      {
        companyId,
        name: 'AEP is coming',
        subject: 'Your Medicare plan review, {{first_name}}',
        bodyHtml:
          '<p>Hi {{first_name}},</p><p>The Annual Enrollment Period runs October 15 to December 7. Let us review your plan together.</p><p>{{agent_name}}</p>',
        category: 'medicare',
        createdBy: admin.id,
      },
    ])
    .returning({ id: emailTemplates.id });
  await db.insert(campaignTriggers).values({
    companyId,
    name: 'Birthday wishes',
    description: 'A note from the agent on every contact’s birthday',
    tags: ['birthday'],
    triggerType: 'email',
    category: 'birthday',
    trigger: 'birthday',
    compliant: true,
    autoTrigger: true,
    recurrence: 'yearly',
    showOnBulk: true,
    emailIds: [birthday.id],
    createdBy: admin.id,
  });
  await db.insert(broadcasts).values({
    companyId,
    userId: admin.id,
    channel: 'email',
    status: 'completed',
    content: { email_id: aep.id, subject: 'Your Medicare plan review, {{first_name}}', html: '<p>AEP</p>' },
    title: 'AEP is coming',
    selection: { ids: 0 },
    total: 0,
    finishedAt: new Date(),
  });
}
