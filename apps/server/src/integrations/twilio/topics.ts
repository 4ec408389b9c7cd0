/**
 * One `twilio` webhook provider per process, shared by every area that takes Twilio callbacks (texting, voice): each
 * area adds the topics it handles (`/v1/webhooks/twilio/{topic}`), and the provider, registered once on first use,
 * hands each verified, deduplicated event to its topic's handler. A topic nobody handles is refused before storing.
 */
import type { Deps } from '../../platform/deps.js';
import type { WebhookProvider } from '../../platform/webhooks/ingress.js';
import { WebhookRefused } from '../../platform/webhooks/ingress.js';
import { twilioProvider } from './webhook.js';

type Handler = WebhookProvider['handle'];
const registries = new WeakMap<object, Map<string, Handler>>();

export function addTwilioTopic(deps: Deps, topic: string, handler: Handler, authToken: string) {
  let topics = registries.get(deps.webhooks);
  if (!topics) {
    const map = new Map<string, Handler>();
    topics = map;
    registries.set(deps.webhooks, map);
    const inner = twilioProvider({
      authToken,
      handle: async (event, tx) => {
        const h = map.get(event.type);
        if (!h) throw new Error(`no handler for Twilio topic ${event.type}`);
        await h(event, tx);
      },
    });
    deps.webhooks.register({
      ...inner,
      verify: (req) => {
        if (!req.topic || !map.has(req.topic))
          throw new WebhookRefused(`unknown Twilio callback ${req.topic ?? '(none)'}`, 400);
        return inner.verify(req);
      },
    });
  }
  if (topics.has(topic)) throw new Error(`Twilio topic ${topic} handled twice`);
  topics.set(topic, handler);
}
