/** The mail port: areas send through this and never see which transport is behind it. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

export interface MailPort {
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}
