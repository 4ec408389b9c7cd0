/**
 * The local lab's pieces on the server: autheph credentials as Kamailio computes them, the bencode of rtpengine's
 * ng protocol, and a round trip to a real rtpengine on loopback when Debian's rtpengine-daemon is installed
 * (an unknown call is refused with rtpengine's own reason, which proves the framing both ways).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { autheph, bdecode, bencode, ngCommand } from './sip.js';

describe('autheph', () => {
  it('is `<expiry>:<identity>` with base64 HMAC-SHA1 of it under the shared secret', () => {
    const t = autheph('s3cret', 'harbor-u7', 3600, Date.UTC(2026, 0, 1));
    const expiry = Date.UTC(2026, 0, 1) / 1000 + 3600;
    expect(t.username).toBe(`${expiry}:harbor-u7`);
    expect(t.password).toBe(crypto.createHmac('sha1', 's3cret').update(t.username).digest('base64'));
    expect(t.expiresAt.getTime()).toBe(expiry * 1000);
  });
});

describe('bencode', () => {
  it('round-trips dictionaries with sorted keys, lists, numbers and UTF-8 strings', () => {
    const v = { command: 'start recording', 'call-id': 'abc@127.0.0.1', flags: ['x', 'y'], n: 42, name: 'José' };
    const text = bencode(v);
    expect(text.startsWith('d7:call-id13:abc@127.0.0.17:command15:start recording')).toBe(true);
    expect(bdecode(text)).toEqual(v);
  });
});

const RTPENGINE = '/usr/bin/rtpengine';
describe.skipIf(!fs.existsSync(RTPENGINE))('a real rtpengine on loopback', () => {
  // Not Debian's /etc/rtpengine/rtpengine.conf: its CLI and HTTP ports are the voice lab's too when both run.
  const port = 22_000 + 2 * Math.floor(Math.random() * 1000);
  const child = spawn(
    'sh',
    [
      '-c',
      `ulimit -c 0; exec ${RTPENGINE} --config-file=none --interface=127.0.0.1 --listen-ng=127.0.0.1:${port} --table=-1 --foreground --log-stderr --port-min=31000 --port-max=31100`,
    ],
    { stdio: 'ignore' },
  );
  afterAll(() => {
    child.kill('SIGKILL');
  });

  it('answers a recording command for an unknown call with its own reason', async () => {
    let last: unknown;
    // rtpengine takes a moment to listen, longer on a busy machine (the test command runs lanes side by side), and
    // each unanswered attempt waits ngCommand's second: retry until a deadline rather than a count.
    const deadline = Date.now() + 50_000;
    while (Date.now() < deadline) {
      try {
        await ngCommand(`127.0.0.1:${port}`, { command: 'start recording', 'call-id': 'no-such-call' });
        last = 'ok';
        break;
      } catch (err) {
        last = err;
        if (/rtpengine: /.test(String((err as Error).message))) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(String((last as Error).message)).toMatch(/^rtpengine: .*(unknown|call)/i);
  }, 60_000);
});
