/**
 * One `twilio` webhook provider per process, shared by every area that takes Twilio callbacks (texting, voice): each
 * area adds the topics it handles (`/v1/webhooks/twilio/{topic}`), and the provider, registered once on first use,
 * hands each verified, deduplicated event to its topic's handler. A topic nobody handles is refused before storing.
 * A drained batch goes to each topic's `handleMany` when it has one (set-based), else event by event.
 */
import type { Deps } from '../../platform/deps.js';
import type { BatchResult, StoredWebhookEvent, WebhookProvider } from '../../platform/webhooks/ingress.js';
import { WebhookRefused } from '../../platform/webhooks/ingress.js';
import { twilioProvider } from './webhook.js';

type Handler = WebhookProvider['handle'];
type Many = NonNullable<WebhookProvider['handleMany']>;
interface Topic {
  handle: Handler;
  handleMany?: Many;
}
const registries = new WeakMap<object, Map<string, Topic>>();

/** Each topic's events of a batch to its handler; the results merged. */
async function handleBatch(map: Map<string, Topic>, events: StoredWebhookEvent[], tx: Parameters<Handler>[1]) {
  const failed = new Map<number, string>();
  const after: Array<() => void> = [];
  const byTopic = new Map<string, StoredWebhookEvent[]>();
  for (const e of events) {
    const list = byTopic.get(e.type);
    if (list) list.push(e);
    else byTopic.set(e.type, [e]);
  }
  for (const [type, list] of byTopic) {
    const t = map.get(type);
    if (!t) throw new Error(`no handler for Twilio topic ${type}`);
    if (!t.handleMany) {
      for (const e of list) await t.handle(e, tx);
      continue;
    }
    const r: BatchResult = (await t.handleMany(list, tx)) ?? {};
    for (const [id, why] of r.failed ?? []) failed.set(id, why);
    if (r.afterCommit) after.push(r.afterCommit);
  }
  return {
    failed,
    afterCommit: () => {
      for (const f of after) f();
    },
  };
}

export function addTwilioTopic(deps: Deps, topic: string, handler: Handler | Topic, authToken: string) {
  let topics = registries.get(deps.webhooks);
  if (!topics) {
    const map = new Map<string, Topic>();
    topics = map;
    registries.set(deps.webhooks, map);
    const inner = twilioProvider({
      authToken,
      handle: async (event, tx) => {
        const h = map.get(event.type);
        if (!h) throw new Error(`no handler for Twilio topic ${event.type}`);
        await h.handle(event, tx);
      },
    });
    deps.webhooks.register({
      ...inner,
      handleMany: (events, tx) => handleBatch(map, events, tx),
      verify: (req) => {
        if (!req.topic || !map.has(req.topic))
          throw new WebhookRefused(`unknown Twilio callback ${req.topic ?? '(none)'}`, 400);
        return inner.verify(req);
      },
    });
  }
  if (topics.has(topic)) throw new Error(`Twilio topic ${topic} handled twice`);
  topics.set(topic, typeof handler === 'function' ? { handle: handler } : handler);
}
