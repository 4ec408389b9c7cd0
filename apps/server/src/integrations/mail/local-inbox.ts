/**
 * The local stand-in: a real SMTP server on loopback, in-process. Mail goes out through nodemailer over SMTP exactly
 * as in production, is parsed here and kept for the development inbox page (/dev/inbox).
 */
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../../platform/db/client.js';
import type { MailPort, OutgoingMail } from './port.js';
import { devMails } from './schema.js';
import { SmtpMail } from './smtp.js';

export class LocalInbox implements MailPort {
  private constructor(
    private readonly server: SMTPServer,
    private readonly client: SmtpMail,
    private readonly pending: Set<Promise<void>>,
  ) {}

  static async start(db: Db, from: string): Promise<LocalInbox> {
    const pending = new Set<Promise<void>>();
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      size: 10 * 1024 * 1024,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const work = store(db, Buffer.concat(chunks)).then(
            () => callback(),
            (err: Error) => callback(err),
          );
          pending.add(work);
          void work.finally(() => pending.delete(work));
        });
      },
    });
    const port = await new Promise<number>((resolve, reject) => {
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
    });
    const client = new SmtpMail({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }, from);
    return new LocalInbox(server, client, pending);
  }

  async send(mail: OutgoingMail) {
    // nodemailer resolves once the server accepted the message; the server stores before accepting.
    const headers = mail.viewer ? { ...mail.headers, [VIEWER_HEADER]: mail.viewer } : mail.headers;
    await this.client.send({ ...mail, headers });
  }

  async close() {
    await Promise.allSettled([...this.pending]);
    await this.client.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Carries OutgoingMail.viewer over the loopback SMTP hop to the stored row. */
const VIEWER_HEADER = 'X-Harbor-Dev-Viewer';

async function store(db: Db, raw: Buffer) {
  const parsed = await PostalMime.parse(raw);
  const viewer = parsed.headers.find((h) => h.key === VIEWER_HEADER.toLowerCase())?.value ?? null;
  await db.insert(devMails).values({
    viewer,
    to: (parsed.to ?? []).map((a) => a.address ?? a.name).join(', '),
    from: parsed.from?.address ?? '',
    subject: parsed.subject ?? '',
    text: parsed.text ?? null,
    html: parsed.html ?? null,
  });
}
