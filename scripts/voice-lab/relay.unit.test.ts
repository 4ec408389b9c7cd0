/**
 * The lab's relay (relay.mjs) between Kamailio's events and a stand-in Harbor on loopback: a relay restarted mid-call
 * still posts that call's later statuses (its state was in the lab's directory), then, once rtpengine has closed the
 * call's pcap, the recording callback; the WAV is served only to requests signed with the lab's secret.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeCallId, RECORDING_SID } from './recording.mjs';
import { labSigned, type Relay, SIGNATURE_HEADER, signLab, startRelay } from './relay.mjs';

const SECRET = 'relay-test-secret';
const posts: { path: string; body: Record<string, unknown>; signed: boolean }[] = [];
let harbor: http.Server;
let appUrl: string;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-'));
  for (const sub of ['tmp', 'metadata', 'pcaps']) fs.mkdirSync(path.join(dir, 'rec', sub), { recursive: true });
  harbor = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      posts.push({
        path: req.url ?? '',
        body: JSON.parse(body),
        signed: labSigned(SECRET, req.headers[SIGNATURE_HEADER], body),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":1,"duplicates":0}');
    });
  });
  await new Promise<void>((r) => harbor.listen(0, '127.0.0.1', r));
  appUrl = `http://127.0.0.1:${(harbor.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => harbor.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const start = () =>
  startRelay({
    port: 0,
    appUrl,
    secret: SECRET,
    stateFile: path.join(dir, 'relay-state.json'),
    spool: path.join(dir, 'rec'),
  });
const kamailio = (relay: Relay, ev: object) =>
  fetch(`${relay.url}/kamailio`, { method: 'POST', body: JSON.stringify(ev) }).then((r) => r.text());
const statuses = () => posts.filter((p) => p.path.endsWith('/status')).map((p) => p.body.status);

/** One second of PCMU from each party, as rtpengine's pcap of a call (raw IPv4). */
function pcapOfOneSecond() {
  const head = Buffer.alloc(24);
  head.writeUInt32LE(0xa1b2c3d4, 0);
  head.writeUInt32LE(101, 20);
  const records: Buffer[] = [];
  for (let i = 0; i < 50; i++) {
    for (const port of [30900, 44000]) {
      const frame = Buffer.alloc(28 + 12 + 160, 0x9f);
      frame[0] = 0x45;
      frame[9] = 17;
      frame.writeUInt16BE(port, 20);
      frame.writeUInt16BE(30000, 22);
      frame[28] = 0x80;
      frame[29] = 0;
      frame.writeUInt32BE(i * 160, 32);
      frame.writeUInt32BE(port, 36);
      const rec = Buffer.alloc(16);
      rec.writeUInt32LE(1_800_000_000, 0);
      rec.writeUInt32LE(i * 20_000, 4);
      rec.writeUInt32LE(frame.length, 8);
      rec.writeUInt32LE(frame.length, 12);
      records.push(rec, frame);
    }
  }
  return Buffer.concat([head, ...records]);
}

describe('the relay', () => {
  it("carries a call across its own restart, then posts the call's recording and serves it to Harbor only", async () => {
    const ci = 'restart-1@127.0.0.1';
    const name = `${escapeCallId(ci)}-0123456789abcdef`;
    // rtpengine is recording: the stretch's metadata is in tmp/ until the call is deleted.
    const meta = path.join(dir, 'rec', 'tmp', `rtpengine-meta-${name}.tmp`);
    fs.writeFileSync(meta, `${dir}/rec/pcaps/${name}.pcap\n\n`);
    fs.writeFileSync(path.join(dir, 'rec', 'pcaps', `${name}.pcap`), pcapOfOneSecond());

    const first = await start();
    await kamailio(first, { e: 'invite', ci, dir: 'out', from: 'harbor-u5', to: '15550001111', call: '42' });
    await kamailio(first, { e: 'reply', ci, code: '180' });
    await kamailio(first, { e: 'reply', ci, code: '200' });
    await first.settled();
    await first.close();
    expect(statuses()).toEqual(['initiated', 'ringing', 'in-progress']);

    const second = await start();
    try {
      await new Promise((r) => setTimeout(r, 1100));
      await kamailio(second, { e: 'bye', ci });
      await second.settled();
      expect(statuses()).toEqual(['initiated', 'ringing', 'in-progress', 'completed']);
      // The duration runs from the answer the first relay saw.
      expect(posts.at(-1)!.body).toMatchObject({ call_sid: ci, status: 'completed' });
      expect(posts.at(-1)!.body.duration).toBeGreaterThanOrEqual(2);
      expect(posts.every((p) => p.signed)).toBe(true);

      // rtpengine closes the pcap: the recording callback follows.
      fs.renameSync(meta, path.join(dir, 'rec', 'metadata', `rtpengine-meta-${name}.txt`));
      for (let i = 0; i < 100 && !posts.some((p) => p.path.endsWith('/recording')); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await second.settled();
      const rec = posts.find((p) => p.path.endsWith('/recording'))!;
      expect(rec).toMatchObject({ path: '/v1/webhooks/voice-lab/recording', signed: true });
      expect(rec.body).toMatchObject({ call_sid: ci, duration: 1 });
      const sid = String(rec.body.recording_sid);
      expect(sid).toMatch(RECORDING_SID);

      const wavPath = `/recordings/${sid}.wav`;
      const unsigned = await fetch(`${second.url}${wavPath}`);
      expect(unsigned.status).toBe(401);
      const forged = await fetch(`${second.url}${wavPath}`, { headers: { [SIGNATURE_HEADER]: signLab('x', wavPath) } });
      expect(forged.status).toBe(401);
      const wav = await fetch(`${second.url}${wavPath}`, { headers: { [SIGNATURE_HEADER]: signLab(SECRET, wavPath) } });
      expect(wav.status).toBe(200);
      expect(wav.headers.get('content-type')).toBe('audio/wav');
      const audio = Buffer.from(await wav.arrayBuffer());
      expect(audio.toString('ascii', 0, 4)).toBe('RIFF');
      expect(audio.readUInt32LE(40)).toBe(8000 * 2); // one second, both parties mixed
      // Finished: out of the state file.
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'relay-state.json'), 'utf8'))).toEqual({ calls: {} });
    } finally {
      await second.close();
    }
  });
});
