/**
 * The lab's recordings (recording.mjs): rtpengine's pcaps of a call become one mono WAV. G.711 decodes to the
 * standard values; both directions are mixed in step by their RTP timestamps; a stretch with no packet at all
 * (recording paused: between two pcaps, or inside one) is absent from the WAV as it is from the pcap, while a
 * stretch where only one party's packets are missing stays; RTCP, DTMF and header extensions are not audio; the
 * spool says the recording is complete only once rtpengine has moved every metadata file out of tmp/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  alaw,
  escapeCallId,
  mixPackets,
  RATE,
  RECORDING_SID,
  readPcapAudio,
  recordingFiles,
  recordingSid,
  recordingWav,
  ulaw,
  wavFile,
} from './recording.mjs';

interface Pkt {
  t: number;
  src: number;
  dst: number;
  pt?: number;
  ts: number;
  payload: Buffer;
  ext?: boolean;
  ssrc?: number;
}

/** A pcap as rtpengine writes it (raw IPv4, LINKTYPE_RAW), of UDP packets carrying RTP. */
function pcap(packets: Pkt[]) {
  const head = Buffer.alloc(24);
  head.writeUInt32LE(0xa1b2c3d4, 0);
  head.writeUInt16LE(2, 4);
  head.writeUInt16LE(4, 6);
  head.writeUInt32LE(65535, 16);
  head.writeUInt32LE(101, 20);
  const records = packets.map((p, i) => {
    const ext = p.ext ? Buffer.from([0xbe, 0xde, 0, 1, 0x10, 0xff, 0, 0]) : Buffer.alloc(0);
    const rtp = Buffer.concat([Buffer.alloc(12), ext, p.payload]);
    rtp[0] = 0x80 | (p.ext ? 0x10 : 0);
    rtp[1] = p.pt ?? 0;
    rtp.writeUInt16BE(i & 0xffff, 2);
    rtp.writeUInt32BE(p.ts >>> 0, 4);
    rtp.writeUInt32BE(p.ssrc ?? p.src, 8);
    const ip = Buffer.alloc(28);
    ip[0] = 0x45;
    ip[9] = 17;
    ip.set([127, 0, 0, 1], 12);
    ip.set([127, 0, 0, 1], 16);
    ip.writeUInt16BE(p.src, 20);
    ip.writeUInt16BE(p.dst, 22);
    const frame = Buffer.concat([ip, rtp]);
    const rec = Buffer.alloc(16);
    rec.writeUInt32LE(Math.floor(p.t), 0);
    rec.writeUInt32LE(Math.round((p.t % 1) * 1e6), 4);
    rec.writeUInt32LE(frame.length, 8);
    rec.writeUInt32LE(frame.length, 12);
    return Buffer.concat([rec, frame]);
  });
  return Buffer.concat([head, ...records]);
}

/** 20 ms PCMU packets of one direction from `t0` for `seconds`, its RTP clock starting at `ts0`. */
function stream(src: number, dst: number, t0: number, seconds: number, ts0: number, byte: number): Pkt[] {
  return Array.from({ length: Math.round(seconds / 0.02) }, (_, i) => ({
    t: t0 + i * 0.02,
    src,
    dst,
    ts: ts0 + i * 160,
    payload: Buffer.alloc(160, byte),
  }));
}

const dirs: string[] = [];
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-rec-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

// Steady levels that tell the parties apart and add up without clipping (8316 and 16764).
const AGENT = 0x9f;
const FAR = 0x8f;

describe('G.711', () => {
  it('decodes mu-law and A-law to the standard linear values', () => {
    expect([0xff, 0x7f, 0x80, 0x00, 0xfe, 0xef, 0x6f].map(ulaw)).toEqual([0, 0, 32124, -32124, 8, 132, -132]);
    expect([alaw(0xd5), alaw(0x55), alaw(0xaa), alaw(0x2a)]).toEqual([8, -8, 32256, -32256]);
  });
});

describe('a call recording from pcaps', () => {
  const t0 = 1_800_000_000;

  it('reads only audio: RTCP, telephone-event and header extensions are skipped', () => {
    const packets = readPcapAudio(
      pcap([
        { t: t0, src: 30900, dst: 30000, ts: 0, payload: Buffer.alloc(160, FAR) },
        { t: t0, src: 44321, dst: 30011, ts: 0, payload: Buffer.alloc(160, AGENT), ext: true },
        { t: t0 + 0.01, src: 44321, dst: 30011, pt: 72, ts: 0, payload: Buffer.alloc(20) }, // RTCP SR (200)
        { t: t0 + 0.01, src: 44321, dst: 30011, pt: 126, ts: 0, payload: Buffer.alloc(4) }, // DTMF
      ]),
    );
    expect(packets.map((p) => [p.key, p.samples.length])).toEqual([
      ['127.0.0.1:30900->127.0.0.1:30000#30900', 160],
      ['127.0.0.1:44321->127.0.0.1:30011#44321', 160],
    ]);
    expect(packets[1].samples.every((s) => s === ulaw(AGENT))).toBe(true);
  });

  it('mixes both directions in step and leaves out a paused stretch, whether between two pcaps or inside one', () => {
    // Two seconds recorded, five paused (the RTP clocks run on), one more second.
    const first = [...stream(30900, 30000, t0, 2, 1000, FAR), ...stream(44321, 30011, t0 + 0.005, 2, 9000, AGENT)];
    const second = [
      ...stream(30900, 30000, t0 + 7, 1, 1000 + 7 * RATE, FAR),
      ...stream(44321, 30011, t0 + 7.005, 1, 9000 + 7 * RATE, AGENT),
    ];
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, 'a.pcap'), pcap(first));
    fs.writeFileSync(path.join(dir, 'b.pcap'), pcap(second));
    const made = recordingWav([path.join(dir, 'b.pcap'), path.join(dir, 'a.pcap')])!;
    // The three recorded seconds (and the one packet's time kept at the cut), not the eight of the call.
    expect(made.seconds).toBeGreaterThan(2.99);
    expect(made.seconds).toBeLessThan(3.1);
    const one = mixPackets(readPcapAudio(pcap([...first, ...second])));
    expect(one.length / RATE).toBeCloseTo(made.seconds, 2);
    // Both parties at once: their samples add up.
    expect(one[RATE]).toBe(ulaw(AGENT) + ulaw(FAR));
    expect(one[2 * RATE + 0.5 * RATE]).toBe(ulaw(AGENT) + ulaw(FAR));
  });

  it('keeps a stretch where only one party is missing (the far end talks on), as silence from that party', () => {
    const far = stream(30900, 30000, t0, 4, 0, FAR);
    // The agent's packets stop for 1.5 s (rtpengine plays the disclaimer instead), their clock running on.
    const agent = [...stream(44321, 30011, t0, 1, 0, AGENT), ...stream(44321, 30011, t0 + 2.5, 1.5, 2.5 * RATE, AGENT)];
    const mixed = mixPackets(readPcapAudio(pcap([...far, ...agent])));
    expect(mixed.length / RATE).toBeCloseTo(4, 1);
    expect(mixed[Math.round(0.5 * RATE)]).toBe(ulaw(AGENT) + ulaw(FAR));
    expect(mixed[Math.round(1.75 * RATE)]).toBe(ulaw(FAR));
    expect(mixed[Math.round(3 * RATE)]).toBe(ulaw(AGENT) + ulaw(FAR));
  });

  it('keeps two sources on the same ports apart (SIPp echoing the disclaimer beside the voice)', () => {
    // Captured with jitter: laid out by capture time, the packets would overlap and leave gaps.
    const voice = stream(30900, 30000, t0, 3, 500, FAR).map((p, i) => ({ ...p, t: p.t + (i % 3) * 0.004 }));
    const echoed = stream(30900, 30000, t0 + 1.001, 1, 0, 0xef).map((p) => ({ ...p, ts: p.ts + 3e9, ssrc: 77 }));
    const mixed = mixPackets(readPcapAudio(pcap([...voice, ...echoed])));
    expect(mixed.length / RATE).toBeCloseTo(3, 1);
    expect(mixed.subarray(0, RATE).every((x) => x === ulaw(FAR))).toBe(true);
    expect(mixed.subarray(1.1 * RATE, 1.9 * RATE).every((x) => x === ulaw(FAR) + ulaw(0xef))).toBe(true);
    expect(mixed.subarray(2.1 * RATE, 3 * RATE).every((x) => x === ulaw(FAR))).toBe(true);
  });

  it('writes a mono 16-bit 8 kHz WAV', () => {
    const wav = wavFile(Int16Array.from([0, 1, -1, 32767]));
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect([wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([1, 8000, 16]);
    expect(wav.readUInt32LE(40)).toBe(8);
    expect(wav.readInt16LE(48)).toBe(-1);
  });
});

describe("rtpengine's spool", () => {
  it('names a call by its escaped Call-ID and is complete once no metadata file is left in tmp/', () => {
    const spool = tmpDir();
    for (const sub of ['tmp', 'metadata', 'pcaps']) fs.mkdirSync(path.join(spool, sub));
    const ci = '1-11618@127.0.0.1';
    expect(escapeCallId(ci)).toBe('1-11618%40127.0.0.1');
    expect(escapeCallId('a b/é~')).toBe('a%20b%2F%C3%A9~');
    expect(recordingFiles(spool, ci)).toEqual({ complete: true, pcaps: [] });

    const first = `${escapeCallId(ci)}-0123456789abcdef`;
    const second = `${escapeCallId(ci)}-fedcba9876543210`;
    for (const name of [first, second]) fs.writeFileSync(path.join(spool, 'pcaps', `${name}.pcap`), pcap([]));
    fs.writeFileSync(path.join(spool, 'metadata', `rtpengine-meta-${first}.txt`), `${spool}/pcaps/${first}.pcap\n\n`);
    fs.writeFileSync(path.join(spool, 'tmp', `rtpengine-meta-${second}.tmp`), `${spool}/pcaps/${second}.pcap\n\n`);
    // Another call whose Call-ID starts alike is not this one.
    fs.writeFileSync(path.join(spool, 'tmp', `rtpengine-meta-${escapeCallId(ci)}x-0123456789abcdef.tmp`), '');
    expect(recordingFiles(spool, ci).complete).toBe(false);

    fs.renameSync(
      path.join(spool, 'tmp', `rtpengine-meta-${second}.tmp`),
      path.join(spool, 'metadata', `rtpengine-meta-${second}.txt`),
    );
    const done = recordingFiles(spool, ci);
    expect(done.complete).toBe(true);
    expect(done.pcaps.sort()).toEqual([`${spool}/pcaps/${first}.pcap`, `${spool}/pcaps/${second}.pcap`]);
    expect(recordingWav(done.pcaps)).toBeNull(); // nothing in them
  });

  it('names recordings by their call, alike after a restart', () => {
    expect(recordingSid('a@x')).toMatch(RECORDING_SID);
    expect(recordingSid('a@x')).toBe(recordingSid('a@x'));
    expect(recordingSid('a@x')).not.toBe(recordingSid('b@x'));
  });
});
