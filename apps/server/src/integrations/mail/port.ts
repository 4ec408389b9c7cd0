/** The mail port: areas send through this and never see which transport is behind it. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  /** A display sender for this message ("Angela Diaz via Harbor"); the address stays MAIL_FROM's. */
  fromName?: string;
  replyTo?: string;
  /** The Message-ID (without angle brackets); nodemailer makes one when absent. */
  messageId?: string;
  /** The envelope sender (VERP: a per-message return path, so a bounce names its message). */
  returnPath?: string;
  /**
   * Development inbox only: a tag of the signed-out browser that caused this mail (a reset link, a sign-in code), so
   * that browser, and no other, may read it there. Real SMTP never sees it.
   */
  viewer?: string | null;
}

export interface MailPort {
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

/**
 * A transport that reports what happened to messages as signed provider events (SendGrid's event webhook format).
 * The local stand-in is one: its events go through the same verification and deduplication as the provider's.
 */
export interface MailEventSource {
  /** The base64 DER public key its events are signed with (as SendGrid's settings page shows one). */
  readonly eventPublicKey: string;
  /** Where signed event batches go (the app posts them to /v1/webhooks/sendgrid). */
  setEventSink(sink: (body: string, headers: Record<string, string>) => Promise<number>): void;
}

export const isMailEventSource = (m: unknown): m is MailEventSource =>
  typeof (m as MailEventSource)?.setEventSink === 'function';

/** SMTP answered 5xx: the message will never be taken, retrying is useless. */
export const isPermanentMailError = (err: unknown) => {
  const code = Number((err as { responseCode?: number })?.responseCode);
  return code >= 500 && code < 600;
};
