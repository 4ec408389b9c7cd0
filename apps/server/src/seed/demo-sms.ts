/**
 * Texting for the demo (issue 12): the demo agent has premium Max Plus (the SMS gate opens) and a number of their
 * own whose A2P 10DLC registration is approved; texts are paid from the wallet, which they top up. Nothing is sent.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client.js';

export async function seedDemoSms(db: Db, companyId: number, email: string, phone: string) {
  const res = await db.execute<{ id: number }>(
    sql`update users set max_plus_active = true, max_plus_plan = 'premium' where company_id = ${companyId} and email = ${email} returning id`,
  );
  const userId = res.rows[0] ? Number(res.rows[0].id) : null;
  if (!userId) return;
  await db.execute(
    sql`insert into sms_numbers (company_id, user_id, phone, sid, registration_status, registration_checked_at, monthly_price, created_by)
      values (${companyId}, ${userId}, ${phone}, ${`PNdemo${phone}`}, 'approved', now(), 150, ${userId})`,
  );
}
