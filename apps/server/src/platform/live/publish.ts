/**
 * The one way a server publishes on the live connection: the message is parsed with the channel's shared schema
 * (packages/shared/src/live.ts) first, so a shape the browser would drop throws here, in the tests, instead of
 * vanishing in a browser.
 */
import { LIVE_MESSAGES, type LiveChannel, type LiveMessage } from '@harbor/shared';
import type { Bus } from './bus.js';

export function publishLive<C extends LiveChannel>(
  bus: Bus,
  channel: C,
  stream: string,
  message: LiveMessage<C>,
): Promise<void> {
  // Thrown at the call, not inside a promise a fire-and-forget caller would drop.
  const parsed = LIVE_MESSAGES[channel].parse(message);
  return bus.publish(stream, parsed);
}
