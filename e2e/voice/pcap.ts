/**
 * Reads an rtpengine pcap recording (raw IPv4 packets, or Ethernet frames) of a lab call: one stream per direction
 * (source port -> destination port), its RTP payload types, and for PCMU its decoded audio: how many seconds were
 * recorded and how loud (RMS of the 16-bit samples). Silence is an RMS near 0; the fake microphone's tone is
 * thousands.
 */
import fs from 'node:fs';

export interface RtpStream {
  key: string;
  packets: number;
  payloadTypes: Record<number, number>;
  seconds: number;
  rms: number;
  /** Loudness per 0.5 s window, to find when a sound started or stopped. */
  windows: number[];
}

/** G.711 mu-law to linear 16-bit. */
function ulaw(byte: number) {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 7;
  const magnitude = (((u & 0x0f) << 3) + 0x84) << exponent;
  return u & 0x80 ? 0x84 - magnitude : magnitude - 0x84;
}

export function readRecording(file: string): RtpStream[] {
  const buf = fs.readFileSync(file);
  const ethernet = buf.readUInt32LE(20) === 1;
  const streams = new Map<string, { packets: number; payloadTypes: Record<number, number>; samples: number[] }>();
  for (let off = 24; off + 16 <= buf.length; ) {
    const length = buf.readUInt32LE(off + 8);
    const frame = buf.subarray(off + 16, off + 16 + length);
    off += 16 + length;
    const ip = ethernet ? frame.subarray(14) : frame;
    if (ip.length < 20 || ip[0] >> 4 !== 4 || ip[9] !== 17) continue; // IPv4 UDP only
    const udp = ip.subarray((ip[0] & 15) * 4);
    const rtp = udp.subarray(8);
    if (rtp.length < 12 || rtp[0] >> 6 !== 2) continue;
    const key = `${udp.readUInt16BE(0)}->${udp.readUInt16BE(2)}`;
    const s = streams.get(key) ?? { packets: 0, payloadTypes: {}, samples: [] };
    streams.set(key, s);
    const pt = rtp[1] & 0x7f;
    s.packets++;
    s.payloadTypes[pt] = (s.payloadTypes[pt] ?? 0) + 1;
    if (pt === 0) for (const b of rtp.subarray(12 + (rtp[0] & 15) * 4)) s.samples.push(ulaw(b));
  }
  const rms = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0) / Math.max(1, xs.length));
  return [...streams].map(([key, s]) => {
    const windows: number[] = [];
    for (let i = 0; i < s.samples.length; i += 4000) windows.push(Math.round(rms(s.samples.slice(i, i + 4000))));
    return {
      key,
      packets: s.packets,
      payloadTypes: s.payloadTypes,
      seconds: s.samples.length / 8000,
      rms: Math.round(rms(s.samples)),
      windows,
    };
  });
}

/**
 * How long a pcap's audio lasts by its capture times: from its first PCMU packet to the end of its last (20 ms).
 * A paused stretch lies between two pcaps, so a call's recorded time is the sum over its pcaps.
 */
export function capturedSeconds(file: string) {
  const buf = fs.readFileSync(file);
  const ethernet = buf.readUInt32LE(20) === 1;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (let off = 24; off + 16 <= buf.length; ) {
    const t = buf.readUInt32LE(off) + buf.readUInt32LE(off + 4) / 1e6;
    const length = buf.readUInt32LE(off + 8);
    const ip = (ethernet ? buf.subarray(off + 16 + 14) : buf.subarray(off + 16)).subarray(0, length);
    off += 16 + length;
    if (ip.length < 20 || ip[0] >> 4 !== 4 || ip[9] !== 17) continue;
    const rtp = ip.subarray((ip[0] & 15) * 4 + 8);
    if (rtp.length < 12 || rtp[0] >> 6 !== 2 || (rtp[1] & 0x7f) !== 0) continue;
    first = Math.min(first, t);
    last = Math.max(last, t);
  }
  return last >= first ? last - first + 0.02 : 0;
}
