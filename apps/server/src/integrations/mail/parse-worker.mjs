// The local SMTP stand-in's MIME parse (local-inbox.ts), off the server's main thread: in production the provider
// parses what Harbor sends, so the stand-in's share of a broadcast's CPU (~0.3 ms a message) should not sit on the
// event loop that serves requests and sends the mail. Plain JavaScript: it runs without the TypeScript loader.
import { parentPort } from 'node:worker_threads';
import PostalMime from 'postal-mime';

parentPort.on('message', async ({ id, raw }) => {
  try {
    const p = await PostalMime.parse(raw);
    parentPort.postMessage({
      id,
      parsed: {
        headers: p.headers.map((h) => ({ key: h.key, value: h.value })),
        to: (p.to ?? []).map((a) => ({ address: a.address, name: a.name })),
        from: p.from ? { address: p.from.address, name: p.from.name } : null,
        subject: p.subject ?? null,
        text: p.text ?? null,
        html: p.html ?? null,
        messageId: p.messageId ?? null,
      },
    });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err?.message ?? err) });
  }
});
