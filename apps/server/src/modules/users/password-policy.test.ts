/** Issue 15: weak passwords are refused on every path that sets one (change, reset by token, admin creating a user). */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  signIn,
  type TestApp,
  waitForMail,
} from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const WEAK: Array<[string, RegExp]> = [
  ['12345678', /too common/],
  ['password', /too common/],
  ['Password1', /too common/],
  ['aaaaaaaa', /too common|too simple/],
  ['zzzzzzzzzzzz', /too simple/],
];

async function resetToken(email: string) {
  await new Client(t.app).post('/v1/users/reset_password_instructions', { email });
  return (await waitForMail(t, email, /Reset/)).text!.match(/reset_password_token=([A-Za-z0-9_-]+)/)![1];
}

describe('weak passwords', () => {
  it('are refused when changing your password, with the reason', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const [me] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.email, DEMO('agent')));
    for (const [password, reason] of WEAK) {
      const res = await c.patch(`/v1/users/${me.id}/update_password`, {
        current_password: DEMO_PASSWORD,
        password,
        password_confirmation: password,
      });
      expect(res.status, password).toBe(422);
      expect(res.body.errors.password[0], password).toMatch(reason);
    }
    const own = `${me.firstName} rules the ${me.lastName} family`;
    const personal = await c.patch(`/v1/users/${me.id}/update_password`, {
      current_password: DEMO_PASSWORD,
      password: own,
      password_confirmation: own,
    });
    expect(personal.body.errors.password[0]).toMatch(/must not contain your name/);
    const ok = await c.patch(`/v1/users/${me.id}/update_password`, {
      current_password: DEMO_PASSWORD,
      password: 'correct horse battery staple',
      password_confirmation: 'correct horse battery staple',
    });
    expect(ok.status).toBe(200);
  });

  it('are refused when resetting by token, and the token stays usable for a better one', async () => {
    const email = DEMO('field_manager');
    const token = await resetToken(email);
    const c = new Client(t.app);
    for (const [password, reason] of WEAK) {
      const res = await c.post('/v1/users/reset_password_by_token', {
        reset_password_token: token,
        password,
        password_confirmation: password,
      });
      expect(res.status, password).toBe(422);
      expect(res.body.errors.password[0], password).toMatch(reason);
    }
    const ok = await c.post('/v1/users/reset_password_by_token', {
      reset_password_token: token,
      password: 'a walk along the quiet river',
      password_confirmation: 'a walk along the quiet river',
    });
    expect(ok.status).toBe(200);
    await signIn(t.app, email, 'a walk along the quiet river');
  });

  it('are refused as the temporary password of a new user', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const res = await admin.post('/v1/admin/users', {
      first_name: 'Weak',
      last_name: 'Pass',
      email: 'weak.pass@demo.harbor.test',
      password: 'password1',
      account_type: 'agent',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.password[0]).toMatch(/too common/);
  });
});
