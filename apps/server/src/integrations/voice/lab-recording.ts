/**
 * A finished recording of the local lab, fetched from its relay (scripts/voice-lab/relay.mjs), the twin of
 * downloading a Twilio recording. The callback names only the recording's id; the URL is always the configured
 * `VOICE_SIP_RECORDINGS_URL` plus `/<id>.wav`, never one a callback supplies, and redirects are refused, so a
 * callback cannot point the server at another host (SSRF). The request is signed like the lab's callbacks (over its
 * path), so the relay serves recordings to Harbor only.
 */
import type { SipVoiceConfig } from './config.js';
import { LAB_SIGNATURE_HEADER, signLabBody } from './lab-signature.js';

/** The lab's recording ids (Twilio's are `RE` + 32 hex): nothing that could climb out of the URL's path. */
export const LAB_RECORDING_SID = /^LR[0-9a-f]{32}$/;
/** Four hours of 8 kHz 16-bit mono: more is not a call recording. */
const MAX_BYTES = 4 * 3600 * 16_000 + 44;

export async function downloadLabRecording(cfg: SipVoiceConfig, sid: string): Promise<Buffer> {
  if (!cfg.recordingsUrl) throw new Error('the lab recordings URL is not configured (VOICE_SIP_RECORDINGS_URL)');
  if (!LAB_RECORDING_SID.test(sid)) throw new Error('not a lab recording id');
  const url = new URL(`${cfg.recordingsUrl}/${sid}.wav`);
  const res = await fetch(url, {
    headers: { [LAB_SIGNATURE_HEADER]: signLabBody(cfg.secret, url.pathname) },
    redirect: 'error',
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) throw new Error(`lab recording download answered ${res.status}`);
  if (Number(res.headers.get('content-length') ?? 0) > MAX_BYTES) throw new Error('lab recording is too large');
  const audio = Buffer.from(await res.arrayBuffer());
  // A whole WAV or nothing: a truncated or foreign answer is retried by the job, never kept.
  const riff =
    audio.length >= 44 && audio.toString('ascii', 0, 4) === 'RIFF' && audio.toString('ascii', 8, 12) === 'WAVE';
  if (!riff || audio.readUInt32LE(4) !== audio.length - 8 || audio.length > MAX_BYTES) {
    throw new Error('lab recording is not a complete WAV file');
  }
  return audio;
}
