/**
 * The one message shape Harbor sends (a text part, optionally an HTML alternative, a few headers), written directly
 * into one buffer with nodemailer's own encoders (RFC 2047 words, quoted-printable, folding). nodemailer's
 * MailComposer builds the same bytes through a tree of streams: ~1 ms of CPU a message, a quarter of a broadcast's
 * per-message cost (bench/email.ts, docs/decisions/email.md). Anything outside the shape (a non-ASCII address, which
 * needs punycode) is left to MailComposer: `buildMime` answers null.
 */
import { encodeWords, foldLines, isPlainText, quoteString } from 'nodemailer/lib/mime-funcs';
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp';

export interface MimeInput {
  from: { name?: string; address: string };
  to: string;
  replyTo?: string;
  subject: string;
  /** With its angle brackets. */
  messageId: string;
  /** Header name -> value; `prepared` names go out exactly as given (SendGrid's X-SMTPAPI is raw JSON). */
  headers: Record<string, string>;
  prepared?: ReadonlySet<string>;
  text: string;
  html?: string;
  boundary: string;
  date?: Date;
}

// An address we write as is: printable ASCII without the characters that would end or split a header.
const PLAIN_ADDRESS = /^[!#-'*+\-.-9=?A-Z^-~]+@[A-Za-z0-9.-]+$/;
// A display name that needs neither quoting nor encoding.
const ATOM_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/;

/** No CR or LF inside a header value: a value must never start a header of its own. */
const oneLine = (v: string) => v.replace(/[\r\n]+/g, ' ');

function header(key: string, value: string) {
  return `${foldLines(`${key}: ${value}`, 76)}\r\n`;
}

function encoded(value: string) {
  const v = oneLine(value);
  return isPlainText(v) ? v : encodeWords(v, 'Q', 52);
}

function mailbox(name: string | undefined, address: string) {
  if (!name) return address;
  const n = oneLine(name);
  const phrase = ATOM_PHRASE.test(n) ? n : isPlainText(n) ? quoteString(n) : encodeWords(n, 'Q', 52);
  return `${phrase} <${address}>`;
}

function part(contentType: string, body: string) {
  const qp = qpWrap(qpEncode(Buffer.from(body.replace(/\r?\n/g, '\r\n'), 'utf8')), 76);
  return `Content-Type: ${contentType}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${qp}`;
}

/** The message as bytes, or null when it falls outside the shape this writes (see the file's comment). */
export function buildMime(m: MimeInput): Buffer | null {
  const addresses = [m.from.address, m.to, ...(m.replyTo ? [m.replyTo] : [])];
  if (!addresses.every((a) => PLAIN_ADDRESS.test(a))) return null;
  let out = '';
  for (const [key, value] of Object.entries(m.headers)) {
    out += m.prepared?.has(key.toLowerCase()) ? `${key}: ${oneLine(value)}\r\n` : header(key, encoded(value));
  }
  out += header('From', mailbox(m.from.name, m.from.address));
  out += header('To', m.to);
  if (m.replyTo) out += header('Reply-To', m.replyTo);
  out += header('Subject', encoded(m.subject));
  out += header('Message-ID', oneLine(m.messageId));
  out += header('Date', (m.date ?? new Date()).toUTCString().replace(/GMT$/, '+0000'));
  out += 'MIME-Version: 1.0\r\n';
  if (m.html === undefined) return Buffer.from(`${out}${part('text/plain', m.text)}`, 'utf8');
  const b = `--_Harbor-${m.boundary}`;
  out += `Content-Type: multipart/alternative;\r\n boundary="${b}"\r\n\r\n`;
  out += `--${b}\r\n${part('text/plain', m.text)}\r\n`;
  out += `--${b}\r\n${part('text/html', m.html)}\r\n`;
  out += `--${b}--\r\n`;
  return Buffer.from(out, 'utf8');
}
