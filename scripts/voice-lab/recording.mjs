// A lab call's recording as the carrier it stands in for would deliver it: rtpengine (--recording-method=pcap) keeps
// each recorded stretch of a call as a pcap of the RTP it received from both parties; once the call is over and
// rtpengine has closed them, they become one mono WAV (8 kHz, 16-bit: both directions mixed), which the relay serves
// and announces to Harbor (relay.mjs). The lab negotiates G.711 mu-law (PCMU) with the browser and SIPp; A-law is
// decoded too. Within a stretch each stream is laid out by its RTP timestamps (anchored to the packet's capture
// time), so the parties stay in step; a stretch where no packet at all was captured (recording paused) is left out,
// as it is absent from the pcap, rather than kept as silence.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const RATE = 8000;
/** A capture gap longer than this, in every stream at once, is a paused stretch: it is cut out. */
export const PAUSE_GAP_S = 1;
/** How far a stream's RTP clock may wander from its capture times before it is anchored again. */
const MAX_DRIFT = RATE / 2;

/** The lab's recording id (Twilio's are `RE` + 32 hex): derived from the Call-ID, so a relay restart names it alike. */
export const recordingSid = (callId) =>
  `LR${crypto.createHash('sha256').update(String(callId)).digest('hex').slice(0, 32)}`;
export const RECORDING_SID = /^LR[0-9a-f]{32}$/;

/** G.711 mu-law to linear 16-bit. */
export function ulaw(byte) {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 7;
  const magnitude = (((u & 0x0f) << 3) + 0x84) << exponent;
  return u & 0x80 ? 0x84 - magnitude : magnitude - 0x84;
}

/** G.711 A-law to linear 16-bit. */
export function alaw(byte) {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 7;
  let magnitude = (a & 0x0f) << 4;
  magnitude = exponent === 0 ? magnitude + 8 : (magnitude + 0x108) << (exponent - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

const DECODERS = { 0: ulaw, 8: alaw };

/**
 * The audio packets of one pcap (rtpengine writes raw IP, or Ethernet frames with --recording-format=eth):
 * `{ t: capture seconds, key: "src->dst#ssrc", ts: RTP timestamp, samples: Int16Array }`. RTCP, DTMF and comfort noise
 * are skipped.
 */
export function readPcapAudio(buf) {
  if (buf.length < 24) return [];
  const magic = buf.readUInt32LE(0);
  const le = magic === 0xa1b2c3d4 || magic === 0xa1b23c4d;
  const u32 = (off) => (le ? buf.readUInt32LE(off) : buf.readUInt32BE(off));
  const nano = u32(0) === 0xa1b23c4d;
  const ethernet = u32(20) === 1;
  const out = [];
  for (let off = 24; off + 16 <= buf.length; ) {
    const t = u32(off) + u32(off + 4) / (nano ? 1e9 : 1e6);
    const length = u32(off + 8);
    const frame = buf.subarray(off + 16, Math.min(buf.length, off + 16 + length));
    off += 16 + length;
    const ip = ethernet ? frame.subarray(14) : frame;
    let udp;
    let addr;
    if (ip.length >= 20 && ip[0] >> 4 === 4 && ip[9] === 17) {
      udp = ip.subarray((ip[0] & 15) * 4);
      addr = [ip.subarray(12, 16).join('.'), ip.subarray(16, 20).join('.')];
    } else if (ip.length >= 40 && ip[0] >> 4 === 6 && ip[6] === 17) {
      udp = ip.subarray(40);
      addr = [ip.subarray(8, 24).toString('hex'), ip.subarray(24, 40).toString('hex')];
    } else continue;
    const rtp = udp.subarray(8);
    if (rtp.length < 12 || rtp[0] >> 6 !== 2) continue;
    const decode = DECODERS[rtp[1] & 0x7f];
    if (!decode) continue;
    let start = 12 + (rtp[0] & 15) * 4;
    // WebRTC sends header extensions (audio level, mid): their words are not audio.
    if (rtp[0] & 0x10 && rtp.length >= start + 4) start += 4 + rtp.readUInt16BE(start + 2) * 4;
    const end = rtp[0] & 0x20 ? rtp.length - rtp[rtp.length - 1] : rtp.length;
    if (end <= start) continue;
    const samples = new Int16Array(end - start);
    for (let i = start; i < end; i++) samples[i - start] = decode(rtp[i]);
    // The SSRC too: while rtpengine plays the disclaimer, SIPp echoes it back beside the agent's voice, on the same
    // ports with a clock of its own.
    const key = `${addr[0]}:${udp.readUInt16BE(0)}->${addr[1]}:${udp.readUInt16BE(2)}#${rtp.readUInt32BE(8)}`;
    out.push({ t, key, ts: rtp.readUInt32BE(4), samples });
  }
  return out;
}

/**
 * Mixes the audio of a call's pcaps into mono 16-bit samples: the timeline is the capture time with every stretch
 * that no stream has packets for (longer than PAUSE_GAP_S) cut out; each stream's packets sit at their RTP
 * timestamps from an anchor, taken again when the stream's clock and its capture time part by more than MAX_DRIFT.
 */
export function mixPackets(packets) {
  const sorted = [...packets].sort((a, b) => a.t - b.t);
  if (sorted.length === 0) return new Int16Array(0);
  let shift = 0;
  let prev = sorted[0].t;
  const placed = [];
  const anchors = new Map();
  let length = 0;
  for (const p of sorted) {
    if (p.t - prev > PAUSE_GAP_S) shift += p.t - prev - 0.02;
    prev = p.t;
    const wall = Math.round((p.t - sorted[0].t - shift) * RATE);
    let a = anchors.get(p.key);
    let pos = a ? a.pos + ((p.ts - a.ts) | 0) : wall;
    if (!a || Math.abs(pos - wall) > MAX_DRIFT) {
      a = { pos: wall, ts: p.ts };
      anchors.set(p.key, a);
      pos = wall;
    }
    if (pos < 0) continue;
    placed.push([pos, p.samples]);
    length = Math.max(length, pos + p.samples.length);
  }
  const sum = new Int32Array(length);
  for (const [pos, samples] of placed) for (let i = 0; i < samples.length; i++) sum[pos + i] += samples[i];
  const out = new Int16Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.max(-32768, Math.min(32767, sum[i]));
  return out;
}

/** A mono 16-bit PCM WAV file of `samples` at `rate` (the lab's RATE unless given). */
export function wavFile(samples, rate = RATE) {
  const data = samples.length * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8, 'ascii');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(data, 40);
  for (let i = 0; i < samples.length; i++) b.writeInt16LE(samples[i], 44 + i * 2);
  return b;
}

/** A Call-ID as rtpengine puts it in file names (g_uri_escape_string: all but unreserved characters escaped). */
export const escapeCallId = (ci) =>
  [...Buffer.from(ci, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/**
 * Where a call's recording stands in rtpengine's spool directory. Each recorded stretch has a metadata file, in
 * tmp/ while rtpengine writes the stretch and moved to metadata/ (first line: its pcap) once the pcap is closed, so
 * the recording is complete when none is left in tmp/.
 * @returns {{ complete: boolean, pcaps: string[] }}
 */
export function recordingFiles(spool, callId) {
  const name = new RegExp(
    `^rtpengine-meta-${escapeCallId(callId).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9a-f]{16}\\.(tmp|txt)$`,
  );
  const list = (sub) => (fs.existsSync(path.join(spool, sub)) ? fs.readdirSync(path.join(spool, sub)) : []);
  const open = list('tmp').filter((f) => name.test(f));
  const pcaps = list('metadata')
    .filter((f) => name.test(f))
    .map((f) => {
      const first = fs
        .readFileSync(path.join(spool, 'metadata', f), 'utf8')
        .split('\n', 1)[0]
        .trim();
      return first.endsWith('.pcap') ? first : path.join(spool, 'pcaps', `${f.slice(15, -4)}.pcap`);
    })
    .filter((f) => fs.existsSync(f));
  return { complete: open.length === 0, pcaps };
}

/** The call's pcaps as one WAV; null when they hold no audio. */
export function recordingWav(pcaps) {
  const samples = mixPackets(pcaps.flatMap((f) => readPcapAudio(fs.readFileSync(f))));
  if (samples.length === 0) return null;
  return { wav: wavFile(samples), seconds: samples.length / RATE };
}
