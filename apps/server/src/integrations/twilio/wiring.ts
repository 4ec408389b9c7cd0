/** Which messaging adapter a process gets: Twilio with TWILIO_* credentials, else the loopback carrier. */
import type RequestClient from 'twilio/lib/base/RequestClient.js';
import type { Config } from '../../config.js';
import { LoopbackCarrier, loopbackAccount } from './loopback-carrier.js';
import { type MessagingPort, TwilioMessaging } from './messaging.js';

export interface Messaging {
  port: MessagingPort;
  /** The loopback carrier when it is the one in use (the "be the phone" page and tests drive it). */
  carrier: LoopbackCarrier | null;
  close(): void;
}

export function wireMessaging(config: Config): Messaging {
  if (config.sms.twilio) {
    return { port: new TwilioMessaging(config.sms.twilio), carrier: null, close() {} };
  }
  const account = loopbackAccount(config.secretKey);
  const carrier = new LoopbackCarrier({
    ...account,
    appUrl: config.appUrl,
    failPercent: config.sms.loopbackFailPercent,
    registrationDelayMs: config.sms.registrationDelayMs,
    journal: config.sms.loopbackJournal ?? undefined,
  });
  const port = new TwilioMessaging({ ...account, httpClient: carrier as unknown as RequestClient });
  return { port, carrier, close: () => carrier.close() };
}
