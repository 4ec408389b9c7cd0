/** Store items of the demo companies: things an agent orders for their book (mailers priced per contact). */
import { inArray } from 'drizzle-orm';
import { cardCharges } from '../modules/account/schema.js';
import { storeItems, storeOrders } from '../modules/store/schema.js';
import type { Db } from '../platform/db/client.js';
import { users } from '../platform/db/schema.js';

export async function seedDemoStore(db: Db, insuranceId: number, recruitingId: number) {
  const items = await db
    .insert(storeItems)
    .values([
      {
        companyId: insuranceId,
        name: 'Turning 65 mailer',
        description: 'A printed Medicare welcome letter mailed to each contact of your search.',
        price: 125,
        pricing: 'per_contact',
      },
      {
        companyId: insuranceId,
        name: 'Business cards (250)',
        description: 'Two-sided cards with your name, license number and photo.',
        price: 3_900,
      },
      {
        companyId: insuranceId,
        name: 'Annual enrollment postcard',
        description:
          'A reminder postcard for the October 15 - December 7 period, mailed to each contact of your search.',
        price: 85,
        pricing: 'per_contact',
      },
      {
        companyId: insuranceId,
        name: 'Website listing, 12 months',
        description: 'Your agent page listed in the Harbor agent directory.',
        price: 12_000,
        monthsCount: 12,
      },
      { companyId: recruitingId, name: 'Recruiting flyer pack', description: '100 printed flyers.', price: 4_500 },
    ])
    .returning();
  // One order a company, declined at the card (no money moved), so order management has a record to open.
  const agents = await db
    .select({ id: users.id, companyId: users.companyId })
    .from(users)
    .where(inArray(users.email, ['agent@demo.harbor.test', 'agent@recruit.harbor.test']));
  for (const a of agents) {
    const item = items.find((i) => i.companyId === a.companyId && i.pricing === 'per_order')!;
    const [charge] = await db
      .insert(cardCharges)
      .values({
        companyId: a.companyId,
        userId: a.id,
        kind: 'store_order',
        amount: item.price,
        description: `Store: ${item.name}`,
        status: 'failed',
        cardBrand: 'visa',
        cardLast4: '0002',
        failureMessage: 'Your card was declined.',
      })
      .returning();
    await db.insert(storeOrders).values({
      companyId: a.companyId,
      userId: a.id,
      itemId: item.id,
      amount: item.price,
      adminStatus: 'cancelled',
      chargeId: charge.id,
    });
  }
}
