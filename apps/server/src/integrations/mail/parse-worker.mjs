// The local SMTP stand-in's MIME parse (local-inbox.ts), off the server's main thread: in production the provider
// parses what Harbor sends, so the stand-in's share of a broadcast's CPU (~0.3 ms a message) should not sit on the
// event loop that serves requests and sends the mail. Plain JavaScript: it runs without the TypeScript loader.
import { parentPort } from 'node:worker_threads';
import { parseMail } from './parse-mail.mjs';

parentPort.on('message', async ({ id, raw }) => {
  try {
    parentPort.postMessage({ id, parsed: await parseMail(raw) });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err?.message ?? err) });
  }
});
