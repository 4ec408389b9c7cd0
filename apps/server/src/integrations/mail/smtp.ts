import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { MailPort, OutgoingMail } from './port.js';

/**
 * Production adapter and the stand-in's client alike: nodemailer over SMTP (SMTP_URL, e.g. smtps://user:pass@host),
 * through a pool of connections so a broadcast does not open one per message.
 */
export class SmtpMail implements MailPort {
  private transport: Transporter;
  constructor(
    target: string | SMTPTransport.Options,
    private readonly from: string,
    poolSize = 8,
  ) {
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
    // SendGrid reads X-SMTPAPI as raw JSON: sent as prepared, never MIME-encoded or folded.
    const headers = Object.fromEntries(
      Object.entries(message.headers ?? {}).map(([k, v]) =>
        k.toLowerCase() === 'x-smtpapi' ? [k, { prepared: true, value: v }] : [k, v],
      ),
    );
    await this.transport.sendMail({
      ...message,
      headers,
      from: fromName ? { name: fromName, address } : this.from,
      ...(messageId ? { messageId: `<${messageId}>` } : {}),
      ...(returnPath ? { envelope: { from: returnPath, to: mail.to } } : {}),
    });
  }
  async close() {
    this.transport.close();
  }
}
