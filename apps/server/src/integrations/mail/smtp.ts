import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { MailPort, OutgoingMail } from './port.js';

/** Production adapter and the stand-in's client alike: nodemailer over SMTP (SMTP_URL, e.g. smtps://user:pass@host). */
export class SmtpMail implements MailPort {
  private transport: Transporter;
  constructor(
    target: string | SMTPTransport.Options,
    private readonly from: string,
  ) {
    this.transport = createTransport(target);
  }
  async send(mail: OutgoingMail) {
    const { viewer: _viewer, ...message } = mail;
    await this.transport.sendMail({ from: this.from, ...message });
  }
  async close() {
    this.transport.close();
  }
}
