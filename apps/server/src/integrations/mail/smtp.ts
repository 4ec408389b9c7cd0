import crypto from 'node:crypto';
import { createTransport, type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { buildMime } from './mime.js';
import type { MailPort, OutgoingMail } from './port.js';

/** Headers sent exactly as given: SendGrid reads X-SMTPAPI as raw JSON, never MIME-encoded or folded. */
const PREPARED: ReadonlySet<string> = new Set(['x-smtpapi']);

/**
 * Production adapter and the stand-in's client alike: nodemailer over SMTP (SMTP_URL, e.g. smtps://user:pass@host),
 * through a pool of connections so a broadcast does not open one per message.
 */
export class SmtpMail implements MailPort {
  private transport: Transporter;
  /** MAIL_FROM's display name ("Harbor" of "Harbor <no-reply@...>"), for messages that name no sender of their own. */
  private readonly fromName: string | undefined;
  constructor(
    target: string | SMTPTransport.Options,
    private readonly from: string,
    poolSize = 8,
  ) {
    this.fromName = displayName(from);
    const options = typeof target === 'string' ? { url: target } : target;
    this.transport = createTransport({
      ...options,
      pool: true,
      maxConnections: poolSize,
      maxMessages: Infinity,
    } as SMTPTransport.Options);
  }
  async send(mail: OutgoingMail) {
    const { viewer: _viewer, fromName, returnPath, messageId, ...message } = mail;
    const address = /<([^>]+)>/.exec(this.from)?.[1] ?? this.from;
    const id = `<${messageId ?? `${crypto.randomUUID()}@${address.split('@')[1] ?? 'localhost'}`}>`;
    const boundary = crypto.randomUUID().replaceAll('-', '');
    // The usual message is written directly (mime.ts); MailComposer writes the rest (a non-ASCII address).
    const raw = buildMime({
      from: { name: fromName ?? this.fromName, address },
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      messageId: id,
      headers: message.headers ?? {},
      prepared: PREPARED,
      text: message.text,
      html: message.html,
      boundary,
    });
    if (raw) {
      // The id given, so the wrapper does not draw one of its own (five crypto.randomBytes calls).
      await this.transport.sendMail({
        envelope: { from: returnPath ?? address, to: [message.to] },
        raw,
        messageId: id,
      });
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(message.headers ?? {}).map(([k, v]) =>
        PREPARED.has(k.toLowerCase()) ? [k, { prepared: true, value: v }] : [k, v],
      ),
    );
    // Built whole first, then sent as one buffer: streamed, nodemailer writes the message to the socket a header or
    // part at a time; the bytes are the same. The boundary from randomUUID (served from a pool of random bytes): left
    // to itself, nodemailer draws one per MIME part and five for the raw wrapper's message id.
    const node = new MailComposer({
      ...message,
      headers,
      from: fromName ? { name: fromName, address } : this.from,
      baseBoundary: boundary,
      messageId: id,
    }).compile();
    const envelope = node.getEnvelope();
    await this.transport.sendMail({
      envelope: returnPath ? { ...envelope, from: returnPath } : envelope,
      raw: await node.build(),
      messageId: node.messageId(),
    });
  }
  async close() {
    this.transport.close();
  }
}

/** "Harbor" of `Harbor <no-reply@...>` or `"Harbor" <...>`; undefined for a bare address. */
function displayName(from: string) {
  const at = from.indexOf('<');
  if (at < 0) return undefined;
  return (
    from
      .slice(0, at)
      .trim()
      .replace(/^"(.*)"$/, '$1') || undefined
  );
}
