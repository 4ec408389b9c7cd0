/** Allow-lists over HTTP: a request naming an inherited key (constructor, __proto__, toString) is a clear 422. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, signIn, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('transfer attempts order_field', () => {
  it('refuses constructor, __proto__ and toString like any unknown field', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await admin.get(`/v1/contacts/transfer_attempts?order_field=${name}`);
      expect(res.status, name).toBe(422);
      expect(res.body.errors.order_field[0]).toBe(`unknown order field '${name}'`);
    }
    expect((await admin.get('/v1/contacts/transfer_attempts?order_field=created_at')).status).toBe(200);
  });
});
