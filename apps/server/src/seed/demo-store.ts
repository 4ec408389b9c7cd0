/** Store items of the demo companies: things an agent orders for their book (mailers priced per contact). */

import { storeItems } from '../modules/store/schema.js';
import type { Db } from '../platform/db/client.js';

export async function seedDemoStore(db: Db, insuranceId: number, recruitingId: number) {
  await db.insert(storeItems).values([
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
      description: 'A reminder postcard for the October 15 - December 7 period, mailed to each contact of your search.',
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
  ]);
}
