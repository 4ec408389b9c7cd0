/**
 * Demo texting and dialer plans for a demo company: two personal plans and one enterprise plan per product, and a
 * manager's team subscription of each product (prepared by the admin, settled by invoice, active) whose licences
 * are handed to two of their people with allocations, the rest waiting to be handed out.
 */
import { smsPlanPrice } from '@harbor/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { planLicences, planOrders, planSubscriptions, usagePlans } from '../modules/usage-plans/schema.js';
import type { Db } from '../platform/db/client.js';
import { users } from '../platform/db/schema.js';

const PLANS = [
  {
    product: 'sms',
    name: 'Texting Standard',
    tier: 'standard',
    price: smsPlanPrice('standard'),
    units: 1000,
    unitPrice: 2,
    description: 'Two-way texting with 1,000 messages a month.',
  },
  {
    product: 'sms',
    name: 'Texting Premium',
    tier: 'premium',
    price: smsPlanPrice('premium'),
    units: 2500,
    unitPrice: 2,
    description: 'More messages for busy agents: 2,500 a month.',
  },
  {
    product: 'sms',
    name: 'Agency Texting',
    tier: 'custom',
    enterprise: true,
    minSeats: 5,
    price: 400,
    units: 1500,
    unitPrice: 2,
    description: 'For a whole team, at least 5 seats.',
  },
  {
    product: 'dialer',
    name: 'Dialer Standard',
    tier: 'standard',
    price: 2500,
    units: 1000,
    unitPrice: 3,
    description: 'Browser calling with 1,000 minutes a month.',
  },
  {
    product: 'dialer',
    name: 'Dialer Premium',
    tier: 'premium',
    price: 4000,
    units: 2500,
    unitPrice: 3,
    description: 'Power users: 2,500 minutes a month.',
  },
  {
    product: 'dialer',
    name: 'Agency Dialer',
    tier: 'custom',
    enterprise: true,
    minSeats: 5,
    price: 2000,
    units: 1000,
    unitPrice: 2,
    description: 'For a whole team, at least 5 seats.',
  },
] as const;

/** `team`: the manager's email and the people who get licences, with their allocations by product. */
export async function seedDemoPlans(
  db: Db,
  companyId: number,
  team: {
    admin: string;
    manager: string;
    seats: number;
    holders: Array<{ email: string; sms: number; dialer: number }>;
  },
) {
  const plans = await db
    .insert(usagePlans)
    .values(
      PLANS.map((p) => ({
        companyId,
        product: p.product,
        name: p.name,
        description: p.description,
        tier: p.tier,
        enterprise: 'enterprise' in p ? p.enterprise : false,
        minSeats: 'minSeats' in p ? p.minSeats : 1,
        price: p.price,
        units: p.units,
        unitPrice: p.unitPrice,
      })),
    )
    .returning();
  const people = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        inArray(users.email, [team.admin, team.manager, ...team.holders.map((h) => h.email)]),
      ),
    );
  const idOf = (email: string) => people.find((p) => p.email === email)?.id;
  const admin = idOf(team.admin);
  const manager = idOf(team.manager);
  if (!admin || !manager) return;
  const started = new Date(Date.now() - 3 * 24 * 3600 * 1000);
  const ends = new Date(started);
  ends.setMonth(ends.getMonth() + 1);
  for (const product of ['sms', 'dialer'] as const) {
    const plan = plans.find((p) => p.product === product && p.tier === 'standard')!;
    const [sub] = await db
      .insert(planSubscriptions)
      .values({
        companyId,
        product,
        planId: plan.id,
        kind: 'manager',
        ownerId: manager,
        seats: team.seats,
        status: 'active',
        paymentMethod: 'invoice',
        price: plan.price,
        units: plan.units,
        unitPrice: plan.unitPrice,
        currentPeriodStart: started,
        currentPeriodEnd: ends,
        activatedAt: started,
        createdBy: admin,
      })
      .returning();
    const [order] = await db
      .insert(planOrders)
      .values({
        companyId,
        product,
        subscriptionId: sub.id,
        orderType: 'ManagerPay',
        kind: 'subscription',
        quantity: team.seats,
        amount: plan.price * team.seats,
        status: 'paid',
        paymentMethod: 'invoice',
        placedBy: admin,
        paidAt: started,
      })
      .returning();
    const held = team.holders.map((h) => ({ userId: idOf(h.email) ?? null, allocation: h[product] }));
    const free = Array.from({ length: team.seats - held.length }, () => ({ userId: null, allocation: 0 }));
    await db.insert(planLicences).values(
      [...held, ...free].map((l) => ({
        companyId,
        product,
        subscriptionId: sub.id,
        orderId: order.id,
        userId: l.userId,
        allocation: l.allocation,
        paid: true,
      })),
    );
  }
}
