// The lab's twin of Twilio's status callbacks. Kamailio posts each raw SIP event of a call here (INVITE, a reply's
// code, BYE, CANCEL); the relay keeps each call's state, turns the events into Twilio-like statuses (initiated,
// ringing, in-progress, then completed with its duration, or busy / no-answer / canceled / failed) and posts them to
// Harbor signed with the lab's secret, one call's statuses in order. An inbound INVITE is asked of Harbor at once:
// Harbor answers the agent identity Kamailio routes the call to (and opens the agent's screen pop).
import crypto from 'node:crypto';
import http from 'node:http';

export const SIGNATURE_HEADER = 'x-harbor-lab-signature';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: the time is signed, so a replay ages out. */
export function signLab(secret, body, t = Math.floor(Date.now() / 1000)) {
  return `t=${t},v1=${crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

const TERMINAL = new Set(['completed', 'busy', 'no-answer', 'canceled', 'failed']);

/** A final SIP failure as the status Twilio would give it. */
function failureStatus(code) {
  if (code === 486 || code === 600) return 'busy';
  if (code === 480 || code === 408) return 'no-answer';
  if (code === 487) return 'canceled';
  return 'failed';
}

/**
 * @param {{ port: number, host?: string, appUrl: string, secret: string, log?: (line: string) => void }} o
 */
export async function startRelay(o) {
  const log = o.log ?? (() => {});
  /** @type {Map<string, { dir: string, status: string, answeredAt: number | null, chain: Promise<void> }>} */
  const calls = new Map();
  /** What was sent to Harbor and when (the bench reads it). */
  const sent = [];

  const signedPost = async (path, payload) => {
    const body = JSON.stringify(payload);
    const res = await fetch(`${o.appUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signLab(o.secret, body) },
      body,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return text;
  };

  const emit = (ci, state, status, extra = {}) => {
    if (TERMINAL.has(state.status) || state.status === status) return;
    if (status === 'ringing' && state.status === 'in-progress') return;
    state.status = status;
    const payload = { call_sid: ci, status, direction: state.dir, at: Date.now(), ...extra };
    sent.push(payload);
    // One call's statuses in order; each is retried a few times (Harbor deduplicates a repeat).
    state.chain = state.chain.then(async () => {
      for (let attempt = 1; attempt <= 4; attempt++) {
        try {
          await signedPost('/v1/webhooks/voice-lab/status', payload);
          return;
        } catch (err) {
          log(`relay: ${status} of ${ci} not accepted (attempt ${attempt}): ${err.message}`);
          await new Promise((r) => setTimeout(r, 250 * attempt));
        }
      }
    });
    if (TERMINAL.has(status)) state.chain.then(() => setTimeout(() => calls.delete(ci), 60_000).unref());
  };

  /** One event from Kamailio; answers the text Kamailio reads (the agent identity for an inbound INVITE). */
  async function onEvent(ev) {
    const ci = String(ev.ci ?? '');
    if (!ci) return '';
    let state = calls.get(ci);
    if (ev.e === 'invite') {
      if (state) return ''; // an INVITE retransmitted
      state = { dir: ev.dir === 'in' ? 'inbound' : 'outbound', status: '', answeredAt: null, chain: Promise.resolve() };
      calls.set(ci, state);
      if (state.dir === 'outbound') {
        emit(ci, state, 'initiated', { harbor_call: ev.call ?? '', identity: ev.from ?? '', to: ev.to ?? '' });
        return '';
      }
      // Inbound: Harbor creates the call and names the agent before Kamailio rings anyone.
      state.status = 'initiated';
      try {
        const reply = JSON.parse(await signedPost('/v1/voice/lab/inbound', { call_sid: ci, from: ev.from, to: ev.to }));
        sent.push({ call_sid: ci, status: 'inbound', at: Date.now() });
        if (reply.identity) return reply.identity;
        calls.delete(ci);
        return reply.busy ? 'busy' : '';
      } catch (err) {
        log(`relay: inbound ${ci} refused: ${err.message}`);
        calls.delete(ci);
        return '';
      }
    }
    if (!state) return '';
    if (ev.e === 'reply') {
      const code = Number(ev.code);
      if (code === 180 || code === 183) emit(ci, state, 'ringing');
      else if (code >= 200 && code < 300) {
        state.answeredAt ??= Date.now();
        emit(ci, state, 'in-progress');
      } else if (code >= 300) emit(ci, state, failureStatus(code), { sip_code: code });
    } else if (ev.e === 'bye') {
      const seconds = state.answeredAt ? Math.max(1, Math.ceil((Date.now() - state.answeredAt) / 1000)) : 0;
      emit(ci, state, state.answeredAt ? 'completed' : 'canceled', { duration: seconds });
    } else if (ev.e === 'cancel') {
      emit(ci, state, 'canceled', { duration: 0 });
    }
    return '';
  }

  const server = http.createServer((req, res) => {
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
  return {
    url: `http://${o.host ?? '127.0.0.1'}:${o.port}`,
    sent,
    /** Waits for every call's statuses to be delivered. */
    settled: () => Promise.all([...calls.values()].map((c) => c.chain)),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
