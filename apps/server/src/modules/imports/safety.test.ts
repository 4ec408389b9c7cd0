/**
 * Issue 8, "Data safety first": an import can never overwrite someone's identity. A phone or an address is not a
 * person: such a match never changes names, date of birth or Medicare number; the default only fills blank fields;
 * the preview says field by field what would change and what would not, and whose contacts they are; the timeline
 * keeps old and new values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';
import { csv, importAndWait as imported, testDataDir, upload } from './test-helpers.js';

let t: TestApp;
let manager: Client;
let agent: Client;
const dataDir = testDataDir();

beforeAll(async () => {
  t = await createTestApp({ env: dataDir });
  [manager, agent] = await Promise.all([signIn(t.app, DEMO('manager')), signIn(t.app, DEMO('agent'))]);
});
afterAll(() => t.close());

const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const HEAD = 'First Name,Last Name,Phone,Email,DOB,Address,City,Medicare Number';

async function importAndWait(client: Client, file: { name: string; data: Buffer }, fields = {}) {
  const [a] = await q(
    'select * from import_attempts where id = (select max(id) from import_attempts where number = $1)',
    [await imported(t, client, file, fields)],
  );
  return a;
}
const contactById = async (id: number) =>
  (await q("select *, to_char(date_of_birth, 'YYYY-MM-DD') as date_of_birth from contacts where id = $1", [id]))[0];

describe('a phone-only match into another agent\'s client (the "Carol Thompson" report)', () => {
  let carol: { id: number; number: number };
  const ramon = csv('vendor.csv', [
    HEAD,
    'Ramón,Domínguez,(305) 892-0000,ramon.dominguez@example.com,04/12/1952,77 Ocean Dr,Miami,',
    'Nina,Fresh,(305) 892-1111,nina.fresh@example.com,,1 Bay St,Miami,',
  ]);

  beforeAll(async () => {
    carol = await newContact(agent, {
      first_name: 'Carol',
      last_name: 'Thompson',
      phone: '305-892-0000',
      email: 'carol.t@example.com',
      date_of_birth: '1948-09-30',
      medicare_number: '1EG4-TE5-MK73',
      address: '12 Palm Ave',
      type: 'client',
    });
  });

  it('the preview lists what would change field by field, what it leaves and why, and whose contact it is', async () => {
    const res = await upload(manager, '/v1/contacts/validate_import', ramon, { scrub_against: 'phone' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ to_create: 1, to_update: 1, unchanged: 0, on_match: 'fill', other_owners: 1 });
    const [plan] = res.body.changes;
    expect(plan).toMatchObject({
      row: 2,
      matched_by: 'phone',
      same_person: false,
      contact: { id: carol.id, number: carol.number, name: 'Carol Thompson', owned_by_importer: false },
    });
    expect(plan.contact.owner.name).toBe('Angela Diaz');
    // Only the blank City is filled; nothing identifying, nothing already filled.
    expect(plan.changes).toEqual([{ field: 'city', from: null, to: 'Miami' }]);
    const kept = Object.fromEntries(plan.kept.map((k: any) => [k.field, [k.value, k.file_value, k.reason]]));
    expect(kept).toEqual({
      first_name: ['Carol', 'Ramón', 'identity'],
      last_name: ['Thompson', 'Domínguez', 'identity'],
      date_of_birth: ['1948-09-30', '1952-04-12', 'identity'],
      email: ['carol.t@example.com', 'ramon.dominguez@example.com', 'not_blank'],
      address: ['12 Palm Ave', '77 Ocean Dr', 'not_blank'],
    });
  });

  it('even "replace with the file\'s values" never touches her identity', async () => {
    const res = await upload(manager, '/v1/contacts/validate_import', ramon, {
      scrub_against: { by: ['phone'], on_match: 'update' },
    });
    const [plan] = res.body.changes;
    expect(plan.changes.map((c: any) => c.field).sort()).toEqual(['address', 'city', 'email']);
    expect(plan.kept.map((k: any) => [k.field, k.reason])).toEqual([
      ['first_name', 'identity'],
      ['last_name', 'identity'],
      ['date_of_birth', 'identity'],
    ]);
  });

  it('the import leaves her name, birth date and Medicare number; the timeline has old and new values', async () => {
    const a = await importAndWait(manager, ramon, { scrub_against: 'phone' });
    expect(a).toMatchObject({ status: 'completed', created: 1, updated: 1, unchanged: 0 });
    const c = await contactById(carol.id);
    expect(c).toMatchObject({
      first_name: 'Carol',
      last_name: 'Thompson',
      email: 'carol.t@example.com',
      medicare_number: '1EG4TE5MK73',
      address: '12 Palm Ave',
      city: 'Miami',
      owner_id: (await q("select id from users where email = 'agent@demo.harbor.test'"))[0].id,
    });
    expect(c.date_of_birth).toBe('1948-09-30');
    const [ev] = await q(
      "select data, actor_id from contact_events where contact_id = $1 and kind = 'import_updated'",
      [carol.id],
    );
    expect(ev.data).toMatchObject({
      import_attempt_id: Number(a.id),
      matched_by: 'phone',
      same_person: false,
      changes: { city: { from: null, to: 'Miami' } },
    });
    // The staging row keeps what changed (for undo), not the file's copy of the person.
    const [row] = await q('select * from import_rows where attempt_id = $1 and row_no = 2', [a.id]);
    expect(row).toMatchObject({ action: 'update', changes: { city: { from: null, to: 'Miami' } } });
    expect(row.first_name).toBeNull();
  });
});

describe('what proves the same person', () => {
  it('the same name and email may fill a blank date of birth; a phone alone may not', async () => {
    const dora = await newContact(agent, { first_name: 'Dora', last_name: 'Lee', email: 'dora.lee@example.com' });
    const eli = await newContact(agent, { first_name: 'Eli', last_name: 'Moss', phone: '555-404-0001' });
    const file = csv('same-person.csv', [
      HEAD,
      'DORA,Lee,,dora.lee@example.com,05/05/1948,,,',
      'Eliza,Moss,555-404-0001,,06/06/1949,,,',
    ]);
    const res = await upload(agent, '/v1/contacts/validate_import', file, { scrub_against: 'phone,email' });
    expect(res.body.changes.map((p: any) => [p.contact.id, p.same_person, p.changes])).toEqual([
      [dora.id, true, [{ field: 'date_of_birth', from: null, to: '1948-05-05' }]],
    ]);
    expect(res.body.untouched.map((p: any) => [p.contact.id, p.same_person, p.kept.map((k: any) => k.field)])).toEqual([
      [eli.id, false, ['first_name', 'date_of_birth']],
    ]);
    await importAndWait(agent, file, { scrub_against: 'phone,email' });
    expect((await contactById(dora.id)).date_of_birth).toBe('1948-05-05');
    expect(await contactById(eli.id)).toMatchObject({ first_name: 'Eli', date_of_birth: null });
  });

  it('a Medicare number proves the person; a date of birth that disagrees disproves a name and email', async () => {
    const fay = await newContact(agent, {
      first_name: 'Fay',
      last_name: 'Ruiz',
      medicare_number: '1EG4TE5MK74',
      phone: '555-404-0002',
    });
    const gus = await newContact(agent, {
      first_name: 'Gus',
      last_name: 'Hart',
      email: 'gus.hart@example.com',
      date_of_birth: '1950-01-01',
    });
    const file = csv('mbi.csv', [
      HEAD,
      'Faye,Ruiz-Ortega,555-404-9999,,07/07/1947,,,1eg4-te5-mk74',
      'Gus,Hart,,gus.hart@example.com,02/02/1951,9 Elm St,,',
    ]);
    const res = await upload(agent, '/v1/contacts/validate_import', file, {
      scrub_against: { by: ['email', 'medicare_number'], on_match: 'update' },
    });
    const byId = Object.fromEntries([...res.body.changes, ...res.body.untouched].map((p: any) => [p.contact.id, p]));
    expect(byId[fay.id]).toMatchObject({ matched_by: 'medicare_number', same_person: true });
    expect(byId[fay.id].changes.map((c: any) => c.field)).toEqual(
      expect.arrayContaining(['first_name', 'last_name', 'date_of_birth', 'phone']),
    );
    expect(byId[gus.id]).toMatchObject({ matched_by: 'email', same_person: false });
    expect(byId[gus.id].changes).toEqual([{ field: 'address', from: null, to: '9 Elm St' }]);
  });

  it('a proven person wins over a phone-only match; a contact matched by two rows goes to the first', async () => {
    const shared = await newContact(agent, { first_name: 'Hal', last_name: 'Shared', phone: '555-404-0003' });
    const ivan = await newContact(agent, { first_name: 'Ivan', last_name: 'Petrov', email: 'ivan.p@example.com' });
    const file = csv('prefer.csv', [
      HEAD,
      'Ivan,Petrov,555-404-0003,ivan.p@example.com,,,Tampa,',
      'Hally,Other,555-404-0003,,,,,',
    ]);
    const res = await upload(agent, '/v1/contacts/validate_import', file, { scrub_against: 'phone,email' });
    // Row 3 has the same phone as row 2, so it is a duplicate inside the file; row 2 is Ivan, proven by name + email.
    expect(res.body.changes.map((p: any) => [p.row, p.contact.id, p.same_person])).toEqual([[2, ivan.id, true]]);
    expect(res.body.skipped).toEqual([{ row: 3, reasons: ['Same phone as row 2'] }]);
    const two = csv('two-rows.csv', [HEAD, 'Hal,Shared,555-404-0003,,,,Ocala,', 'Hal,Shared,,hal@example.com,,,,']);
    await agent.patch(`/v1/contacts/${shared.number}`, { email: 'hal@example.com' });
    const res2 = await upload(agent, '/v1/contacts/validate_import', two, { scrub_against: 'phone,email' });
    expect(res2.body.untouched.map((p: any) => [p.row, p.reason])).toEqual([[3, 'Row 2 already matches this contact']]);
  });
});
