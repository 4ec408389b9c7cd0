/**
 * The loopback carrier (docs/decisions/sms-messaging-port.md): the `httpClient` of the real `twilio` client, answering
 * the subset of Twilio's REST API Harbor uses in Twilio's own shape (Messages, Lookup v2 line type, available and
 * incoming numbers, the Messaging Service's A2P campaign), and behaving like a carrier: each accepted message gets
 * status callbacks queued -> sent -> delivered (undelivered 30006 to a landline, failed 30003 to an unreachable
 * number), signed with X-Twilio-Signature exactly as Twilio signs them and posted to the StatusCallback URL, and a
 * phone can answer (`reply`): an inbound message posted, signed, to the number's SMS URL. The "be the phone" page
 * reads `phone(number)`.
 *
 * Which numbers are what (fictional numbers behave predictably; LOOPBACK_RULES below):
 * the line number (last four digits) 9000-9999 is a landline, 8000-8999 non-fixed VoIP, 0000 unreachable;
 * an invalid number (libphonenumber-js) is refused with 21211 like Twilio does.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { smsSegments } from '@harbor/shared';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import twilio from 'twilio';

export const LOOPBACK_RULES = {
  landline: /[9]\d{3}$/,
  voip: /[8]\d{3}$/,
  unreachable: /0000$/,
};

/** Delivers one signed callback: answers the HTTP status our endpoint gave. */
export type CarrierTarget = (url: string, params: Record<string, string>, signature: string) => Promise<number>;

export interface PhoneEntry {
  sid: string;
  direction: 'to_phone' | 'from_phone';
  /** The other side: the business number. */
  business: string;
  body: string;
  media: string[];
  at: string;
  status: string;
}

export interface LoopbackCarrierOptions {
  accountSid: string;
  authToken: string;
  appUrl: string;
  /** Share (0-100) of sends refused with a 503 (benches: the client must retry without sending twice). */
  failPercent?: number;
  /** How long the A2P campaign stays pending after the carrier starts (ms). */
  registrationDelayMs?: number;
  /** Delay between status steps (ms). */
  stepMs?: number;
  /**
   * A file every accepted message is appended to (one JSON line) and read back at start: the carrier's memory of
   * what it took outlives a killed process, as a real carrier's does (SMS_LOOPBACK_JOURNAL; benches count from it).
   */
  journal?: string;
}

/** What the carrier remembers of a message it accepted (Twilio's Message resource, the fields Harbor reads). */
export interface AcceptedMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  /** ms since the epoch. */
  at: number;
  /** The status it ends at, and its error code. */
  final: string;
  code: string | null;
}

interface Req {
  method: string;
  uri: string;
  params?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

const hex = (n: number) => crypto.randomBytes(n).toString('hex');
const e164 = (s: string) => parsePhoneNumberFromString(s, 'US');

export class LoopbackCarrier {
  private target: CarrierTarget | null = null;
  private readonly waiting: Array<[string, Record<string, string>]> = [];
  private readonly phones = new Map<string, PhoneEntry[]>();
  /** Our numbers (bought) -> their SMS URL. */
  private readonly numbers = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly startedAt = Date.now();
  /** Every message accepted (this process's and, with a journal, earlier ones'), by sid. */
  private readonly accepted = new Map<string, AcceptedMessage>();
  private closed = false;

  constructor(private readonly opts: LoopbackCarrierOptions) {
    if (opts.journal && fs.existsSync(opts.journal)) {
      for (const line of fs.readFileSync(opts.journal, 'utf8').split('\n')) {
        if (!line) continue;
        try {
          const m = JSON.parse(line) as AcceptedMessage;
          if (m.sid) this.accepted.set(m.sid, m);
        } catch {
          // a line cut short by a kill mid-write: that message's request never got its answer either
        }
      }
    }
  }

  /** The messages the carrier accepted, oldest first. */
  acceptedMessages(): AcceptedMessage[] {
    return [...this.accepted.values()];
  }

  setTarget(target: CarrierTarget) {
    this.target = target;
    for (const [url, params] of this.waiting.splice(0)) void this.post(url, params);
  }

  /** What a phone number received and sent, newest last (the "be the phone" page). */
  phone(number: string): PhoneEntry[] {
    return [...(this.phones.get(number) ?? [])];
  }

  /** Every phone the carrier has seen, the most recently active first. */
  phoneList(): Array<{ number: string; last: PhoneEntry }> {
    return [...this.phones]
      .filter(([, list]) => list.length)
      .map(([number, list]) => ({ number, last: list[list.length - 1] }))
      .sort((a, b) => b.last.at.localeCompare(a.last.at));
  }

  /** The phone answers a business number: an inbound message, signed, to the number's SMS URL. */
  async reply(from: string, to: string, body: string, media: string[] = []): Promise<string> {
    const url = this.numbers.get(to) ?? `${this.opts.appUrl}/v1/webhooks/twilio/sms-inbound`;
    const sid = `SM${hex(16)}`;
    const params: Record<string, string> = {
      MessageSid: sid,
      SmsSid: sid,
      AccountSid: this.opts.accountSid,
      From: from,
      To: to,
      Body: body,
      NumMedia: String(media.length),
      NumSegments: String(smsSegments(body).segments || 1),
      SmsStatus: 'received',
      ApiVersion: '2010-04-01',
    };
    media.forEach((m, i) => {
      params[`MediaUrl${i}`] = m;
      params[`MediaContentType${i}`] = 'image/jpeg';
    });
    this.remember(from, {
      sid,
      direction: 'from_phone',
      business: to,
      body,
      media,
      at: new Date().toISOString(),
      status: 'received',
    });
    const status = await this.post(url, params);
    if (status >= 300) throw new Error(`the inbound webhook answered ${status}`);
    return sid;
  }

  /** twilio's RequestClient interface. */
  async request(o: Req): Promise<{ statusCode: number; body: string; headers: Record<string, string> }> {
    const url = new URL(o.uri);
    const path = url.pathname;
    const data = (o.data ?? {}) as Record<string, unknown>;
    const method = o.method.toLowerCase();
    try {
      if (method === 'post' && /\/Accounts\/[^/]+\/Messages\.json$/.test(path)) return this.createMessage(data);
      if (method === 'get' && /\/Accounts\/[^/]+\/Messages\.json$/.test(path)) return this.listMessages(o.params ?? {});
      const one = method === 'get' && /\/Accounts\/[^/]+\/Messages\/(SM[0-9a-f]+)\.json$/.exec(path);
      if (one) return this.fetchMessage(one[1]);
      if (method === 'get' && path.startsWith('/v2/PhoneNumbers/'))
        return this.lookup(decodeURIComponent(path.slice(17)));
      if (method === 'get' && /\/AvailablePhoneNumbers\/US\/Local\.json$/.test(path))
        return this.available(o.params ?? {});
      if (method === 'post' && /\/IncomingPhoneNumbers\.json$/.test(path)) return this.buy(data);
      if (method === 'post' && /^\/v1\/Services\/[^/]+\/PhoneNumbers$/.test(path)) {
        return json(201, { sid: String(data.PhoneNumberSid), phone_number: null, capabilities: ['SMS'] });
      }
      if (method === 'get' && /^\/v1\/Services\/[^/]+\/Compliance\/Usa2p$/.test(path)) return this.compliance();
      return json(404, { code: 20404, message: `The requested resource ${path} was not found`, status: 404 });
    } catch (err) {
      return json(500, { code: 20500, message: (err as Error).message, status: 500 });
    }
  }

  private createMessage(d: Record<string, unknown>) {
    const fail = this.opts.failPercent ?? 0;
    if (fail > 0 && Math.random() * 100 < fail) {
      // Journaled too (no sid): a refused attempt still spends the sender's throughput, and a bench judges the rate
      // the carrier was asked at, not only what it accepted.
      if (this.opts.journal)
        fs.appendFileSync(this.opts.journal, `${JSON.stringify({ refused: true, at: Date.now() })}\n`);
      return json(503, { code: 20503, message: 'Service unavailable (loopback carrier)', status: 503 });
    }
    const to = e164(String(d.To ?? ''));
    if (!to?.isValid()) {
      return json(400, { code: 21211, message: `The 'To' number ${d.To} is not a valid phone number.`, status: 400 });
    }
    const body = String(d.Body ?? '');
    const media = ([] as unknown[]).concat(d.MediaUrl ?? []).map(String);
    if (!body && !media.length) return json(400, { code: 21602, message: 'Message body is required.', status: 400 });
    const sid = `SM${hex(16)}`;
    const number = to.number;
    const from = String(d.From ?? '');
    const segments = smsSegments(body).segments || 1;
    const callback = d.StatusCallback ? String(d.StatusCallback) : null;
    const entry: PhoneEntry = {
      sid,
      direction: 'to_phone',
      business: from,
      body,
      media,
      at: new Date().toISOString(),
      status: 'queued',
    };
    const line = number.slice(-4);
    const final: [string, string | null] = LOOPBACK_RULES.unreachable.test(line)
      ? ['failed', '30003']
      : LOOPBACK_RULES.landline.test(line)
        ? ['undelivered', '30006']
        : ['delivered', null];
    const record: AcceptedMessage = { sid, to: number, from, body, at: Date.now(), final: final[0], code: final[1] };
    this.accepted.set(sid, record);
    // Written before the answer: a process killed now leaves a message the carrier took and Harbor never heard of.
    if (this.opts.journal) fs.appendFileSync(this.opts.journal, `${JSON.stringify(record)}\n`);
    const steps: Array<[string, string | null]> = [['sent', null], final];
    const step = this.opts.stepMs ?? 30;
    steps.forEach(([status, code], i) => {
      this.later(step * (i + 1), () => {
        entry.status = status;
        if (status === 'delivered') this.remember(number, entry);
        if (callback) {
          const p: Record<string, string> = {
            MessageSid: sid,
            SmsSid: sid,
            AccountSid: this.opts.accountSid,
            From: from,
            To: number,
            MessageStatus: status,
            SmsStatus: status,
          };
          if (code) p.ErrorCode = code;
          void this.post(callback, p);
        }
      });
    });
    return json(201, {
      sid,
      account_sid: this.opts.accountSid,
      to: number,
      from,
      body,
      status: 'queued',
      num_segments: String(segments),
      num_media: String(media.length),
      direction: 'outbound-api',
      date_created: new Date().toUTCString(),
      error_code: null,
      error_message: null,
      price: null,
      uri: `/2010-04-01/Accounts/${this.opts.accountSid}/Messages/${sid}.json`,
    });
  }

  /** Where a message is now: queued, then sent after one step, then its final status (from the time it was taken). */
  private statusOf(m: AcceptedMessage): [string, string | null] {
    const step = this.opts.stepMs ?? 30;
    const age = Date.now() - m.at;
    return age >= 2 * step ? [m.final, m.code] : age >= step ? ['sent', null] : ['queued', null];
  }

  private resource(m: AcceptedMessage) {
    const [status, code] = this.statusOf(m);
    return {
      sid: m.sid,
      account_sid: this.opts.accountSid,
      to: m.to,
      from: m.from,
      body: m.body,
      status,
      num_segments: String(smsSegments(m.body).segments || 1),
      num_media: '0',
      direction: 'outbound-api',
      date_created: new Date(m.at).toUTCString(),
      date_sent: new Date(m.at).toUTCString(),
      error_code: code ? Number(code) : null,
      error_message: null,
      price: null,
      uri: `/2010-04-01/Accounts/${this.opts.accountSid}/Messages/${m.sid}.json`,
    };
  }

  private fetchMessage(sid: string) {
    const m = this.accepted.get(sid);
    if (!m)
      return json(404, { code: 20404, message: `The requested resource Message ${sid} was not found`, status: 404 });
    return json(200, this.resource(m));
  }

  /** Messages by To, From and DateSent> / DateSent< (Twilio's filters), newest first, one page. */
  private listMessages(params: Record<string, unknown>) {
    const to = params.To ? e164(String(params.To))?.number : null;
    const from = params.From ? String(params.From) : null;
    const after = params['DateSent>'] ? Date.parse(String(params['DateSent>'])) : null;
    const before = params['DateSent<'] ? Date.parse(String(params['DateSent<'])) : null;
    const size = Math.min(1000, Number(params.PageSize ?? 50) || 50);
    const found = [...this.accepted.values()]
      .filter(
        (m) =>
          (!to || m.to === to) &&
          (!from || m.from === from) &&
          (after === null || m.at >= after) &&
          (before === null || m.at < before),
      )
      .sort((a, b) => b.at - a.at)
      .slice(0, size);
    return json(200, {
      messages: found.map((m) => this.resource(m)),
      page: 0,
      page_size: size,
      first_page_uri: '/Messages.json',
      next_page_uri: null,
      previous_page_uri: null,
      uri: '/Messages.json',
    });
  }

  private lookup(raw: string) {
    const p = e164(raw);
    const valid = Boolean(p?.isValid());
    const line = p?.number.slice(-4) ?? '';
    const type = !valid
      ? null
      : LOOPBACK_RULES.landline.test(line)
        ? 'landline'
        : LOOPBACK_RULES.voip.test(line)
          ? 'nonFixedVoip'
          : 'mobile';
    return json(200, {
      calling_country_code: '1',
      country_code: 'US',
      phone_number: p?.number ?? raw,
      national_format: p?.formatNational() ?? raw,
      valid,
      validation_errors: valid ? [] : ['NOT_A_NUMBER'],
      line_type_intelligence: type
        ? { type, carrier_name: type === 'landline' ? 'Loopback Landline Co.' : 'Loopback Wireless', error_code: null }
        : null,
      url: `https://lookups.twilio.com/v2/PhoneNumbers/${encodeURIComponent(raw)}`,
    });
  }

  private available(params: Record<string, unknown>) {
    const area = /^[2-9]\d\d$/.test(String(params.AreaCode ?? '')) ? String(params.AreaCode) : '813';
    const contains = String(params.Contains ?? '').replace(/\D/g, '');
    const out = [];
    for (let i = 100; i < 200 && out.length < 10; i += 7) {
      const n = `+1${area}555${String(i).padStart(4, '0')}`;
      if (contains && !n.includes(contains)) continue;
      if (this.numbers.has(n)) continue;
      out.push({
        friendly_name: `(${area}) 555-${String(i).padStart(4, '0')}`,
        phone_number: n,
        locality: 'Loopback',
        region: 'FL',
        iso_country: 'US',
        capabilities: { voice: true, SMS: true, MMS: true },
      });
    }
    return json(200, { available_phone_numbers: out, uri: '/available', end: out.length, page: 0, page_size: 20 });
  }

  private buy(d: Record<string, unknown>) {
    const n = e164(String(d.PhoneNumber ?? ''));
    if (!n?.isValid()) return json(400, { code: 21421, message: 'PhoneNumber is invalid', status: 400 });
    if (this.numbers.has(n.number))
      return json(400, { code: 21422, message: 'PhoneNumber is not available', status: 400 });
    this.numbers.set(n.number, String(d.SmsUrl ?? `${this.opts.appUrl}/v1/webhooks/twilio/sms-inbound`));
    return json(201, {
      sid: `PN${hex(16)}`,
      phone_number: n.number,
      sms_url: d.SmsUrl ?? null,
      account_sid: this.opts.accountSid,
    });
  }

  /** Numbers bought before this process started (the carrier's memory is the process's): known again. */
  adopt(number: string, smsUrl: string) {
    if (!this.numbers.has(number)) this.numbers.set(number, smsUrl);
  }

  private compliance() {
    const approved = Date.now() - this.startedAt >= (this.opts.registrationDelayMs ?? 0);
    return json(200, {
      compliance: [
        {
          sid: 'QE2c6890da8086d771620e9b13fadeba0b',
          campaign_status: approved ? 'VERIFIED' : 'PENDING',
          us_app_to_person_usecase: 'CUSTOMER_CARE',
        },
      ],
      meta: { page: 0, page_size: 20, key: 'compliance' },
    });
  }

  private remember(number: string, e: PhoneEntry) {
    const list = this.phones.get(number) ?? [];
    if (!list.includes(e)) list.push(e);
    if (list.length > 200) list.splice(0, list.length - 200);
    this.phones.set(number, list);
  }

  private later(ms: number, fn: () => void) {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /** Posts a signed callback; retried like Twilio does (a few times, backing off) when not answered 2xx. */
  private async post(url: string, params: Record<string, string>, attempt = 0): Promise<number> {
    if (!this.target) {
      this.waiting.push([url, params]);
      return 202;
    }
    const signature = twilio.getExpectedTwilioSignature(this.opts.authToken, url, params);
    let status = 0;
    try {
      status = await this.target(url, params, signature);
    } catch {
      status = 0;
    }
    if ((status < 200 || status >= 300) && attempt < 4 && status !== 401) {
      this.later(200 * 2 ** attempt, () => void this.post(url, params, attempt + 1));
    }
    return status;
  }

  close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

function json(statusCode: number, body: unknown) {
  return { statusCode, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/** The loopback account: a stable SID and a per-process auth token (callbacks are signed with it). */
export function loopbackAccount(secretKey: string) {
  const h = crypto.createHash('sha256').update(`loopback-carrier:${secretKey}`).digest('hex');
  return { accountSid: `AC${h.slice(0, 32)}`, authToken: h.slice(32, 64), messagingServiceSid: `MG${h.slice(0, 32)}` };
}
