/** The mail port: areas send through this and never see which transport is behind it. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
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
