import MailComposer from 'nodemailer/lib/mail-composer';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { buildMime, type MimeInput } from './mime.js';

const base: MimeInput = {
  from: { name: 'Angela Díaz via Harbor', address: 'no-reply@harbor.test' },
  to: 'maria@example.com',
  replyTo: 'angela@agency.test',
  subject: 'Your AEP review — let’s talk',
  messageId: '<harbor-7@bounces.harbor.test>',
  headers: {
    'X-SMTPAPI': JSON.stringify({ unique_args: { harbor_message_id: '7', company_id: '1' } }),
    'List-Unsubscribe': `<https://harbor.test/v1/unsubscribe/${'t'.repeat(90)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  prepared: new Set(['x-smtpapi']),
  text: `Hi Maria,\n\n${'Medicare Advantage plans change every year. '.repeat(12)}\nÜber ✓`,
  html: `<p>Hi Maria,</p><p>${'Plans change every year. '.repeat(20)}</p><p>Über ✓</p>`,
  boundary: '0123456789abcdef',
};

const header = (m: Awaited<ReturnType<typeof PostalMime.parse>>, key: string) =>
  m.headers.find((h) => h.key === key)?.value;

describe('buildMime (the message written directly)', () => {
  it('reads back as MailComposer’s message of the same input does: subject, names, parts, headers', async () => {
    const mine = await PostalMime.parse(buildMime(base)!);
    const { prepared: _p, boundary: _b, ...rest } = base;
    const theirs = await PostalMime.parse(
      await new MailComposer({
        ...rest,
        headers: { ...base.headers, 'X-SMTPAPI': { prepared: true, value: base.headers['X-SMTPAPI'] } },
      } as never)
        .compile()
        .build(),
    );
    for (const k of ['subject', 'text', 'html', 'messageId'] as const) expect(mine[k], k).toBe(theirs[k]);
    expect(mine.from).toEqual(theirs.from);
    expect(mine.replyTo).toEqual(theirs.replyTo);
    expect(mine.to).toEqual(theirs.to);
    for (const k of ['x-smtpapi', 'list-unsubscribe', 'list-unsubscribe-post', 'mime-version'])
      expect(header(mine, k), k).toBe(header(theirs, k));
  });

  it('keeps every line within 998 octets and folds headers, the prepared one left whole', () => {
    const subject = `${base.subject}: the plans for 2027 in Hillsborough County, compared for you side by side`;
    const raw = buildMime({ ...base, subject })!.toString('utf8');
    const [head] = raw.split('\r\n\r\n');
    expect(raw.split('\r\n').every((l) => Buffer.byteLength(l) <= 998)).toBe(true);
    // Folded at whitespace within 78; longer only where there is none to fold at (the unsubscribe URL, as
    // MailComposer leaves it) or for the prepared header.
    const long = head.split('\r\n').filter((l) => l.length > 78 && !l.startsWith('X-SMTPAPI: '));
    expect(long.every((l) => !/\S\s+\S/.test(l.trim()))).toBe(true);
    expect(head).toMatch(/\r\nSubject: [^\r]{1,70}\r\n \S/);
    expect(head).toContain(`X-SMTPAPI: ${base.headers['X-SMTPAPI']}\r\n`);
    expect(raw).not.toMatch(/[^\r]\n/);
  });

  it('never lets a value start a header of its own (CR or LF in a subject or name)', async () => {
    const raw = buildMime({
      ...base,
      subject: 'Hello\r\nBcc: victim@example.com',
      from: { name: 'Eve\nX-Evil: 1', address: 'no-reply@harbor.test' },
    })!;
    const parsed = await PostalMime.parse(raw);
    expect(header(parsed, 'bcc')).toBeUndefined();
    expect(header(parsed, 'x-evil')).toBeUndefined();
    expect(parsed.subject).toBe('Hello Bcc: victim@example.com');
  });

  it('writes a text-only message as one part, and leaves non-ASCII or odd addresses to MailComposer', async () => {
    const { html: _h, ...textOnly } = base;
    const parsed = await PostalMime.parse(buildMime(textOnly)!);
    expect(parsed.html).toBeUndefined();
    // (postal-mime ends a single part's text with a newline, MailComposer's message alike)
    expect(parsed.text?.trimEnd()).toBe(base.text);
    expect(header(parsed, 'content-type')).toMatch(/^text\/plain/);
    expect(buildMime({ ...base, to: 'josé@ejemplo.test' })).toBeNull();
    expect(buildMime({ ...base, to: 'a@x.test, b@y.test' })).toBeNull();
    expect(buildMime({ ...base, replyTo: 'Angela <angela@agency.test>' })).toBeNull();
  });
});
