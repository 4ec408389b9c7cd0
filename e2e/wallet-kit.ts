/**
 * Wallet steps the browser flows share (e2e/wallet.spec.ts, e2e/voice-lab.spec.ts): API calls through the page's
 * cookies with the CSRF token and an idempotency key, and a top-up with the test card that waits for the
 * processor's webhook to credit it.
 */
import crypto from 'node:crypto';
import { expect, type Page } from '@playwright/test';

/** Webhooks and jobs on a loaded two-core machine: generous, since they run after the browser's answer. */
export const PROCESSOR = { timeout: 45_000 };

export async function call<T>(page: Page, method: 'GET' | 'POST', url: string, data?: unknown): Promise<T> {
  await page.request.get('/v1/health');
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const res = await page.request.fetch(url, {
    method,
    data,
    headers: method === 'GET' ? {} : { 'x-csrf-token': csrf, 'idempotency-key': crypto.randomUUID() },
  });
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

const balance = async (page: Page) => (await call<{ balance: number }>(page, 'GET', '/v1/wallets')).balance;

/** Tops up through the API (the card form has its own flow), then waits for the processor's webhook to credit it. */
export async function fund(page: Page, cents: number, saveCard: boolean) {
  const before = await balance(page);
  const pm = await call<{ id: string }>(page, 'POST', '/v1/wallets/payment_methods', {
    number: '4242424242424242',
    exp_month: 12,
    exp_year: new Date().getFullYear() + 3,
    cvc: '123',
  });
  await call(page, 'POST', '/v1/wallets/top_up', { amount: cents, payment_method_id: pm.id, save_card: saveCard });
  await expect.poll(async () => balance(page), PROCESSOR).toBe(before + cents);
}
