// The lab's twin of Twilio's status and recording callbacks. Kamailio posts each raw SIP event of a call here
// (INVITE, a reply's code, BYE, CANCEL); the relay keeps each call's state (calls.mjs, persisted in the lab's
// directory), turns the events into Twilio-like statuses (initiated, ringing, in-progress, then completed with its
// duration, or busy / no-answer / canceled / failed) and posts them to Harbor signed with the lab's secret, one
// call's statuses in order. An inbound INVITE is asked of Harbor at once: Harbor answers the agent identity Kamailio
// routes the call to (and opens the agent's screen pop). When a completed call's recording is closed by rtpengine,
// the relay turns its pcaps into a WAV (recording.mjs), serves it at GET /recordings/<sid>.wav (to requests signed
// with the same secret: only Harbor fetches it) and posts the recording callback, as Twilio does.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CallBook } from './calls.mjs';
import { RECORDING_SID, recordingFiles, recordingSid } from './recording.mjs';

export const SIGNATURE_HEADER = 'x-harbor-lab-signature';
const TOLERANCE_S = 300;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: the time is signed, so a replay ages out. */
export function signLab(secret, body, t = Math.floor(Date.now() / 1000)) {
  return `t=${t},v1=${crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** Whether `header` signs `body` with `secret`, recently (Harbor's fetch of a recording signs its path). */
export function labSigned(secret, header, body, now = Date.now()) {
  const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(String(header ?? ''));
  if (!m || Math.abs(now / 1000 - Number(m[1])) > TOLERANCE_S) return false;
  const expected = Buffer.from(signLab(secret, body, Number(m[1])).slice(-64), 'hex');
  return crypto.timingSafeEqual(expected, Buffer.from(m[2], 'hex'));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The call's pcaps as one WAV (recording-worker.mjs), or null when they hold no audio. */
const convert = (pcaps) =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./recording-worker.mjs', import.meta.url), { workerData: { pcaps } });
    worker.once('message', (made) => resolve(made && { wav: Buffer.from(made.wav), seconds: made.seconds }));
    worker.once('error', reject);
  });

/**
 * @param {{ port: number, host?: string, appUrl: string, secret: string, log?: (line: string) => void,
 *   stateFile?: string, spool?: string, recordingWaitMs?: number }} o
 *   stateFile: where the book of calls is kept (memory only without it); spool: rtpengine's recording directory
 *   (no recordings without it); the WAVs go to <spool>/wav.
 */
export async function startRelay(o) {
  const log = o.log ?? (() => {});
  const book = new CallBook(o.stateFile ?? null);
  const wavDir = o.spool ? path.join(o.spool, 'wav') : null;
  if (wavDir) fs.mkdirSync(wavDir, { recursive: true });
  /** Each call's deliveries in order. */
  const chains = new Map();
  /** What was sent to Harbor and when (for whoever drives the lab). */
  const sent = [];
  let closed = false;

  const signedPost = async (urlPath, payload) => {
    const body = JSON.stringify(payload);
    const res = await fetch(`${o.appUrl}${urlPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signLab(o.secret, body) },
      body,
    });
    const text = await res.text();
    if (!res.ok)
      throw Object.assign(new Error(`${urlPath} answered ${res.status}: ${text.slice(0, 200)}`), {
        status: res.status,
      });
    return text;
  };

  /**
   * Delivers a call's queued callbacks in order. One Harbor could not take (down, restarting: no answer or a 5xx) is
   * tried again for about 25 s (Harbor deduplicates a repeat); one it refused (4xx) is not.
   */
  const deliver = (ci, deliveries) => {
    for (const d of deliveries) {
      sent.push(d.payload);
      const chain = (chains.get(ci) ?? Promise.resolve()).then(async () => {
        for (let attempt = 1; attempt <= 8 && !closed; attempt++) {
          try {
            await signedPost(d.path, d.payload);
            break;
          } catch (err) {
            log(`relay: ${d.payload.status ?? 'recording'} of ${ci} not accepted (attempt ${attempt}): ${err.message}`);
            if (err.status >= 400 && err.status < 500) break;
            await sleep(Math.min(250 * 2 ** (attempt - 1), 8000));
          }
        }
        if (!closed) book.delivered(ci, d);
        if (chains.get(ci) === chain) chains.delete(ci);
      });
      chains.set(ci, chain);
    }
  };

  /** Waits for rtpengine to close the call's recording, makes its WAV and queues its callback. */
  const collectRecording = async (ci) => {
    try {
      await makeRecording(ci);
    } catch (err) {
      log(`relay: the recording of ${ci} could not be made: ${err.message}`);
      book.noRecording(ci);
    }
  };
  const makeRecording = async (ci) => {
    const deadline = (book.get(ci)?.endedAt ?? Date.now()) + (o.recordingWaitMs ?? 120_000);
    while (!closed) {
      const files = o.spool ? recordingFiles(o.spool, ci) : { complete: true, pcaps: [] };
      if (files.complete || Date.now() > deadline) {
        if (!files.complete) log(`relay: the recording of ${ci} was not closed by rtpengine in time`);
        const made = files.complete && files.pcaps.length ? await convert(files.pcaps) : null;
        if (closed) return;
        if (!made) return book.noRecording(ci);
        const sid = recordingSid(ci);
        const file = path.join(wavDir, `${sid}.wav`);
        fs.writeFileSync(`${file}.tmp`, made.wav);
        fs.renameSync(`${file}.tmp`, file);
        const d = book.recordingReady(ci, { recording_sid: sid, duration: Math.max(1, Math.round(made.seconds)) });
        log(`relay: recording of ${ci}: ${made.seconds.toFixed(2)} s from ${files.pcaps.length} pcap(s)`);
        if (d) deliver(ci, [d]);
        return;
      }
      await sleep(200);
    }
  };

  /** One event from Kamailio; answers the text Kamailio reads (the agent identity for an inbound INVITE). */
  async function onEvent(ev) {
    const step = book.event(ev);
    const { ci } = step;
    if (step.kind === 'inbound') {
      try {
        const reply = JSON.parse(await signedPost('/v1/voice/lab/inbound', { call_sid: ci, from: ev.from, to: ev.to }));
        sent.push({ call_sid: ci, status: 'inbound', at: Date.now() });
        if (reply.identity) return reply.identity;
        book.drop(ci);
        return reply.busy ? 'busy' : '';
      } catch (err) {
        log(`relay: inbound ${ci} refused: ${err.message}`);
        book.drop(ci);
        return '';
      }
    }
    deliver(ci, step.deliveries);
    if (step.deliveries.some((d) => d.payload.status === 'completed')) void collectRecording(ci);
    return '';
  }

  /** GET /recordings/<sid>.wav, signed by Harbor over the path. */
  const serveRecording = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    const m = /^\/recordings\/([A-Za-z0-9]+)\.wav$/.exec(url.pathname);
    if (!m || !RECORDING_SID.test(m[1]) || !wavDir) return res.writeHead(404).end();
    if (!labSigned(o.secret, req.headers[SIGNATURE_HEADER], url.pathname)) return res.writeHead(401).end();
    const file = path.join(wavDir, `${m[1]}.wav`);
    if (!fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  };

  const server = http.createServer((req, res) => {
    if (req.method === 'GET') return serveRecording(req, res);
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', async () => {
      let answer = '';
      try {
        const ev = JSON.parse(body);
        log(`relay: ${ev.e} ${ev.dir ?? ev.code ?? ''} ${ev.ci}`);
        answer = await onEvent(ev);
      } catch (err) {
        log(`relay: bad event ${body.slice(0, 200)}: ${err.message}`);
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', resolve);
  });
  // A restarted relay carries on: what it had not delivered, and the recordings it was waiting for.
  for (const [ci, state] of book.calls) if (state.outbox.length) deliver(ci, [...state.outbox]);
  for (const ci of book.waitingForRecording()) void collectRecording(ci);

  const url = `http://${o.host ?? '127.0.0.1'}:${server.address().port}`;
  return {
    url,
    /** Where Harbor fetches recordings (VOICE_SIP_RECORDINGS_URL). */
    recordingsUrl: `${url}/recordings`,
    sent,
    book,
    /** Waits for every call's callbacks to be delivered. */
    settled: () => Promise.all([...chains.values()]),
    close: () =>
      new Promise((r) => {
        closed = true;
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}
