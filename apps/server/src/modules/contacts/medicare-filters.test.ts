/**
 * The Medicare date engine's list filters: "turning 65 within N days" and "in Medigap open enrollment" list exactly
 * the contacts the rules say, counted from the caller's today, through the list route and its SQL.
 */
import {
  addDays,
  addMonths,
  addYears,
  dateInZone,
  firstOfMonth,
  inRange,
  medigapOpenEnrollment,
  sixtyFifthBirthday,
} from '@harbor/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from './test-helpers.js';

let t: TestApp;
let agent: Client;
beforeAll(async () => {
  t = await createTestApp();
  agent = await signIn(t.app, DEMO('agent'));
});
afterAll(() => t.close());

const today = dateInZone(new Date(), 'America/New_York');
const list = (search: Array<{ field: string; value: unknown }>) =>
  agent.patch('/v1/contacts', { search, limit: 500, contact_group: 'all' });
const ids = (res: { body: { data: Array<{ id: number }> } }) => new Set(res.body.data.map((r) => r.id));

describe('turning 65', () => {
  it('lists the contacts whose 65th birthday is within the next N days, and no one else', async () => {
    const dobs = {
      today: addYears(today, -65),
      in30: addYears(addDays(today, 30), -65),
      in90: addYears(addDays(today, 90), -65),
      in91: addYears(addDays(today, 91), -65),
      yesterday: addYears(addDays(today, -1), -65),
      younger: addYears(addDays(today, 30), -64),
    };
    const made: Record<string, number> = {};
    for (const [name, dob] of Object.entries(dobs)) {
      made[name] = (await newContact(agent, { first_name: 'T65', last_name: name, date_of_birth: dob })).id;
    }
    const in90 = ids(await list([{ field: 'turning_65_within', value: '90' }]));
    for (const [name, id] of Object.entries(made)) {
      const b = sixtyFifthBirthday(dobs[name as keyof typeof dobs]);
      expect(in90.has(id), name).toBe(b >= today && b <= addDays(today, 90));
    }
    const in30 = ids(await list([{ field: 'turning_65_within', value: 30 }]));
    expect([...in30].filter((id) => Object.values(made).includes(id)).sort()).toEqual([made.today, made.in30].sort());
  });

  it('refuses a window that is not 1-366 days', async () => {
    for (const value of ['0', '400', 'soon']) {
      const res = await list([{ field: 'turning_65_within', value }]);
      expect(res.status, value).toBe(422);
      expect(res.body.errors.search[0]).toMatch(/turning_65_within/);
    }
  });
});

describe('Medigap open enrollment', () => {
  it('lists contacts in their six months from Part B at 65 or older', async () => {
    const month = firstOfMonth(today);
    const cases = {
      // 65 long ago, Part B started this month: open.
      newB: { dob: '1950-05-10', partB: month },
      // Part B five months ago: the last open month.
      lastMonth: { dob: '1950-05-10', partB: addMonths(month, -5) },
      // Part B six months ago: closed.
      closed: { dob: '1950-05-10', partB: addMonths(month, -6) },
      // Part B early (disability), 65 this month: opens now.
      disabled: { dob: addYears(addDays(month, 14), -65), partB: '2020-01-01' },
      // Part B next month: not yet.
      future: { dob: '1950-05-10', partB: addMonths(month, 1) },
      // No Part B date: never.
      unknown: { dob: '1950-05-10', partB: null },
    };
    const made: Record<string, number> = {};
    for (const [name, c] of Object.entries(cases)) {
      made[name] = (
        await newContact(agent, { first_name: 'OE', last_name: name, date_of_birth: c.dob, part_b_effective: c.partB })
      ).id;
    }
    const open = ids(await list([{ field: 'medigap_oe', value: 'true' }]));
    for (const [name, c] of Object.entries(cases)) {
      const oe = medigapOpenEnrollment(c.dob, c.partB);
      expect(open.has(made[name]), name).toBe(Boolean(oe && inRange(today, oe)));
    }
    expect(open.has(made.newB) && open.has(made.lastMonth) && open.has(made.disabled)).toBe(true);
    expect((await list([{ field: 'medigap_oe', value: 'maybe' }])).status).toBe(422);
  });
});
