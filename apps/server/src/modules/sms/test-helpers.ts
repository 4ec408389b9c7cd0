/** Helpers of the SMS tests. */
import { expect } from 'vitest';
import { type Client, type TestApp, until } from '../../../test/harness.js';
import type { MessagingError } from '../../integrations/twilio/messaging.js';

/**
 * Sends a text to `contact` through the route and answers the stored message; with `fail`, the carrier's send
 * throws it instead of taking the text (a refusal, or no answer at all when it is `ambiguous`).
 */
export async function sendThrough(
  t: TestApp,
  agent: Client,
  contact: { id: number; phone: string | null },
  body: string,
  fail?: MessagingError,
) {
  const port = t.deps.messaging.port as { send: (...a: unknown[]) => Promise<unknown> };
  const real = port.send;
  if (fail)
    port.send = async () => {
      throw fail;
    };
  try {
    const res = await agent.post('/v1/sms/send_message', {
      contact_id: contact.id,
      message_to: contact.phone,
      message_content: body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, unknown> & { id: number };
  } finally {
    port.send = real;
  }
}

/** The broadcast as its route answers it once it has completed (every recipient sent, failed or removed). */
export function completedBroadcast(agent: Client, id: number, timeoutMs = 20_000) {
  return until(
    async () => {
      const r = await agent.get(`/v1/broadcasts/${id}`);
      return r.body.status === 'completed' && (r.body as Record<string, unknown>);
    },
    'the broadcast',
    timeoutMs,
  );
}
