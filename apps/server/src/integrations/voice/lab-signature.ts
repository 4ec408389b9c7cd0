/**
 * The local lab's signature on its call events (docs/decisions/voice-local-lab.md), the twin of X-Twilio-Signature:
 * `X-Harbor-Lab-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(VOICE_SIP_SECRET, "<t>.<raw body>")>`. The time is
 * signed and must be within five minutes, so a captured request stops working; a replay inside that window is
 * the ingress's duplicate (each event is stored once per call and status). The lab's relay signs the same way
 * (scripts/voice-lab/relay.mjs).
 */
import crypto from 'node:crypto';

export const LAB_SIGNATURE_HEADER = 'x-harbor-lab-signature';
export const LAB_SIGNATURE_TOLERANCE_S = 300;

export function signLabBody(secret: string, body: string | Buffer, t = Math.floor(Date.now() / 1000)) {
  const mac = crypto.createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return `t=${t},v1=${mac}`;
}

/** Answers why the signature does not prove the body, or null when it does. */
export function labSignatureProblem(secret: string, header: unknown, body: Buffer, now = Date.now()): string | null {
  if (typeof header !== 'string' || !header) return 'X-Harbor-Lab-Signature is missing';
  const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return 'X-Harbor-Lab-Signature is malformed';
  const t = Number(m[1]);
  if (Math.abs(now / 1000 - t) > LAB_SIGNATURE_TOLERANCE_S) return 'X-Harbor-Lab-Signature is too old';
  const expected = Buffer.from(signLabBody(secret, body, t).slice(-64), 'hex');
  const given = Buffer.from(m[2], 'hex');
  return crypto.timingSafeEqual(expected, given) ? null : 'X-Harbor-Lab-Signature does not match';
}
