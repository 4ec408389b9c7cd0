export interface ParsedMail {
  headers: Array<{ key: string; value: string }>;
  to: Array<{ address?: string; name: string }>;
  from: { address?: string; name: string } | null;
  subject: string | null;
  text: string | null;
  html: string | null;
  messageId: string | null;
}
export declare function parseMail(raw: Buffer | Uint8Array): Promise<ParsedMail>;
