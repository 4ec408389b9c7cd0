/** Helpers of the billing, Max Plus and store integration tests: a card on file, waiting for a webhook to settle. */
import { expect } from 'vitest';
import type { Client } from '../../../test/harness.js';

export const nextYear = () => new Date().getFullYear() + 2;

/** Connects a card (the test numbers of docs/decisions/loopback-processor.md). */
export async function connectCard(c: Client, number = '4242424242424242') {
  const res = await c.post('/v1/accounts/connect_card', { number, exp_month: 12, exp_year: nextYear(), cvc: '123' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Polls `read` until `done` says so (the processor's webhook is worked by a job a moment after the answer). */
export async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, what = 'condition'): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what} never happened`);
}
