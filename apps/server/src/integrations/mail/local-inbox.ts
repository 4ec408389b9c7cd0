/**
 * The local stand-in: a real SMTP server on loopback, in-process. Mail goes out through nodemailer over SMTP exactly
 * as in production, is parsed here and kept for the development inbox page (/dev/inbox).
 *
 * Like a sending provider it also reports what became of each message as SendGrid event-webhook batches, signed with
 * its own ECDSA key and posted through the app's webhook route, so the real verification and deduplication run:
 * `delivered`, or `bounce` for a recipient whose address starts with "bounce" (identified from the VERP return
 * path), or `delivered` then `spamreport` for one starting with "complaint". Events are derived from the stored
 * rows and marked posted only once the app accepted them, so a process killed in between posts them after restart.
 * `failPercent` answers that share of messages with a temporary 451 (benches use it; never in production).
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../../platform/db/client.js';
import { withQueueScans } from '../../platform/db/queue-scans.js';
import { MailParser } from './parser.js';
import type { MailEventSource, MailPort, OutgoingMail } from './port.js';
import { devMails } from './schema.js';
import { SmtpMail } from './smtp.js';

type Sink = (body: string, headers: Record<string, string>) => Promise<number>;
const KEPT_HEADERS = ['list-unsubscribe', 'list-unsubscribe-post', 'message-id', 'reply-to'];
/** Messages stored per statement, and how long one waits for company (the SMTP reply waits for the store). */
const STORE_BATCH = 200;
const STORE_WAIT_MS = 5;
const EVENT_BATCH = 500;

interface Received {
  row: typeof devMails.$inferInsert;
  done: (err?: Error) => void;
}

export class LocalInbox implements MailPort, MailEventSource {
  private sink: Sink | null = null;
  private queue: Received[] = [];
  private flushing: Promise<void> | null = null;
  private posting: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  readonly eventPublicKey: string;

  private constructor(
    private readonly db: Db,
    private readonly server: SMTPServer,
    private readonly client: SmtpMail,
    private readonly parser: MailParser,
    private readonly privateKey: crypto.KeyObject,
    publicKey: crypto.KeyObject,
  ) {
    this.eventPublicKey = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  }

  static async start(
    db: Db,
    from: string,
    opts: { failPercent?: number; eventPrivateKey?: string | null } = {},
  ): Promise<LocalInbox> {
    // A key of its own each start, unless given one: a bench that configured SENDGRID_WEBHOOK_PUBLIC_KEY to sign
    // events itself gives the matching private key, or the webhook would refuse the stand-in's own events and
    // every message a kill left ambiguous would be sent again after the grace period.
    const given = opts.eventPrivateKey
      ? crypto.createPrivateKey({ key: Buffer.from(opts.eventPrivateKey, 'base64'), format: 'der', type: 'pkcs8' })
      : null;
    const { publicKey, privateKey } = given
      ? { privateKey: given, publicKey: crypto.createPublicKey(given) }
      : crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    let inbox: LocalInbox | null = null;
    const failPercent = opts.failPercent ?? 0;
    const parser = new MailParser();
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      size: 10 * 1024 * 1024,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (failPercent > 0 && Math.random() * 100 < failPercent) {
            const err = Object.assign(new Error('Temporary local problem, try again later'), { responseCode: 451 });
            return callback(err);
          }
          const returnPath = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
          parse(parser, Buffer.concat(chunks), returnPath).then(
            (row) => inbox!.enqueue({ row, done: (err) => callback(err ?? null) }),
            (err: Error) => callback(err),
          );
        });
      },
    });
    const port = await new Promise<number>((resolve, reject) => {
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
    });
    // 48 connections: each reply waits for its message's row to be stored (a batched insert), so the pace is
    // connections over that wait; with 16 a broadcast's two lanes of 24 sends queued for a connection (bench/email.ts:
    // 125 -> 179 messages/s on a 2-core machine; 96 gained nothing more).
    const client = new SmtpMail({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }, from, 48);
    inbox = new LocalInbox(db, server, client, parser, privateKey, publicKey);
    return inbox;
  }

  async send(mail: OutgoingMail) {
    // nodemailer resolves once the server accepted the message; the server stores before accepting.
    const headers = mail.viewer ? { ...mail.headers, [VIEWER_HEADER]: mail.viewer } : mail.headers;
    await this.client.send({ ...mail, headers });
  }

  setEventSink(sink: Sink) {
    this.sink = sink;
    this.schedulePost(50); // whatever a previous process stored but could not post
  }

  /** Stores received messages in batches; each SMTP reply waits for its row to be committed. */
  private enqueue(r: Received) {
    this.queue.push(r);
    if (!this.flushing) this.flushing = this.flush();
  }

  private async flush() {
    try {
      while (this.queue.length) {
        if (this.queue.length < STORE_BATCH) await new Promise((res) => setTimeout(res, STORE_WAIT_MS));
        const batch = this.queue.splice(0, STORE_BATCH);
        try {
          await this.db.insert(devMails).values(batch.map((b) => b.row));
          for (const b of batch) b.done();
        } catch (err) {
          for (const b of batch) b.done(err as Error);
        }
        if (batch.some((b) => b.row.uniqueArgs)) this.schedulePost(20);
      }
    } finally {
      this.flushing = null;
    }
  }

  private schedulePost(ms: number) {
    if (this.closed || !this.sink || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.posting) this.posting = this.post().finally(() => (this.posting = null));
    }, ms);
  }

  /** Posts the events of stored messages not posted yet, in signed batches, until none is left. */
  private async post() {
    for (;;) {
      if (this.closed || !this.sink) return;
      // An index scan only: every posted row leaves a dead entry in the pending index (platform/db/queue-scans.ts);
      // as a bitmap scan this poll read ~7,900 of them a call during a 20,000-message broadcast.
      const rows = await withQueueScans(this.db, (tx) =>
        tx
          .select()
          .from(devMails)
          .where(sql`events_posted_at is null and unique_args is not null`)
          .orderBy(devMails.id)
          .limit(EVENT_BATCH),
      );
      if (!rows.length) return;
      const { body, headers } = this.sign(rows.flatMap(eventsOf));
      let status = 0;
      try {
        status = await this.sink(body, headers);
      } catch {
        status = 0;
      }
      if (status !== 200) {
        // Like a provider: keep them and try again later.
        this.schedulePost(2_000);
        return;
      }
      await this.db.execute(
        sql`update dev_mails set events_posted_at = now() where id = any(${sql.param(rows.map((r) => r.id))}::int[])`,
      );
    }
  }

  /** A batch of events as this stand-in posts it: the JSON body and SendGrid's signature headers. */
  sign(events: unknown[]) {
    const body = JSON.stringify(events);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = crypto.sign('sha256', Buffer.from(timestamp + body), this.privateKey).toString('base64');
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-twilio-email-event-webhook-signature': signature,
        'x-twilio-email-event-webhook-timestamp': timestamp,
      },
    };
  }

  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.posting?.catch(() => {});
    await this.flushing?.catch(() => {});
    await this.client.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.parser.close();
  }
}

/** Carries OutgoingMail.viewer over the loopback SMTP hop to the stored row. */
const VIEWER_HEADER = 'X-Harbor-Dev-Viewer';

async function parse(
  parser: MailParser,
  raw: Buffer,
  returnPath: string | null,
): Promise<typeof devMails.$inferInsert> {
  const parsed = await parser.parse(raw);
  const header = (name: string) => parsed.headers.find((h) => h.key === name)?.value ?? null;
  const smtpApi = header('x-smtpapi');
  let uniqueArgs: Record<string, unknown> | null = null;
  try {
    uniqueArgs = smtpApi ? ((JSON.parse(smtpApi).unique_args as Record<string, unknown>) ?? null) : null;
  } catch {
    uniqueArgs = null;
  }
  const kept = Object.fromEntries(
    KEPT_HEADERS.map((k) => [k, header(k)]).filter((e): e is [string, string] => e[1] !== null),
  );
  return {
    viewer: header(VIEWER_HEADER.toLowerCase()),
    to: (parsed.to ?? []).map((a) => a.address ?? a.name).join(', '),
    from: parsed.from?.address ?? '',
    subject: parsed.subject ?? '',
    text: parsed.text ?? null,
    html: parsed.html ?? null,
    messageId: parsed.messageId ?? null,
    returnPath,
    uniqueArgs,
    headers: kept,
  };
}

/** What a provider would report for this message: SendGrid event objects, with the message's unique_args. */
function eventsOf(row: typeof devMails.$inferSelect) {
  const args = row.uniqueArgs ?? {};
  const email = row.to.split(',')[0].trim();
  const at = Math.floor(new Date(row.createdAt).getTime() / 1000);
  const base = { email, timestamp: at, 'smtp-id': row.messageId, sg_message_id: `local-${row.id}`, ...args };
  const id = (kind: string) => crypto.createHash('sha256').update(`${row.id}:${kind}`).digest('hex').slice(0, 32);
  const local = email.split('@')[0].toLowerCase();
  if (local.startsWith('bounce')) {
    // A bounce names its message by the VERP return path it came back to, as a DSN would.
    const fromVerp = /^bounces\+m(\d+)@/.exec(row.returnPath ?? '')?.[1];
    return [
      {
        ...base,
        ...(fromVerp ? { harbor_message_id: fromVerp } : {}),
        event: 'bounce',
        type: 'bounce',
        status: '5.1.1',
        reason: '550 5.1.1 The email account that you tried to reach does not exist',
        sg_event_id: id('bounce'),
      },
    ];
  }
  const delivered = { ...base, event: 'delivered', response: '250 OK', sg_event_id: id('delivered') };
  if (local.startsWith('complaint')) return [delivered, { ...base, event: 'spamreport', sg_event_id: id('spam') }];
  return [delivered];
}
