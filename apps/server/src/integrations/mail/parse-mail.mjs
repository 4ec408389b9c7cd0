// A received message's parts the stand-in keeps (local-inbox.ts), from postal-mime: run in the parse worker
// (parse-worker.mjs) and, when a worker cannot start, in-process (parser.ts). Plain JavaScript for the worker.
import PostalMime from 'postal-mime';

/** @param {Buffer | Uint8Array} raw */
export async function parseMail(raw) {
  const p = await PostalMime.parse(raw);
  return {
    headers: p.headers.map((h) => ({ key: h.key, value: h.value })),
    to: (p.to ?? []).map((a) => ({ address: a.address, name: a.name })),
    from: p.from ? { address: p.from.address, name: p.from.name } : null,
    subject: p.subject ?? null,
    text: p.text ?? null,
    html: p.html ?? null,
    messageId: p.messageId ?? null,
  };
}
