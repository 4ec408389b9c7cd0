/**
 * Redis down or restarting must never end the process (issue 15): the real server (src/main.ts, its own process,
 * embedded database) starts with REDIS_URL on a port where nothing listens, takes a /cable subscription, and must
 * still be answering seconds later with health saying degraded; then a real redis-server comes up on that port,
 * is stopped and started again, and live delivery resumes each time.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DEMO_PASSWORD } from '../src/seed/demo.js';
import { RedisServer } from './redis-server.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

let redis: RedisServer;
let server: ServerProcess;
let dataDir: string;
const queue = `harbor-outage-${crypto.randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  redis = await RedisServer.onSparePort(); // not started: the port is dead
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-redis-outage-'));
  // A new embedded database is created, migrated and seeded first: on a loaded 2-core runner that alone took over
  // two minutes once.
  server = await startServerProcess(
    { DATA_DIR: dataDir, REDIS_URL: redis.url, JOBS_QUEUE: queue, HARBOR_ENV: 'development' },
    270_000,
  );
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await redis?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function health() {
  const res = await fetch(`${server.url}/v1/health`);
  return { status: res.status, body: (await res.json()) as { status: string; redis: string } };
}

async function eventually(check: () => Promise<boolean>, ms = 20_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not true after ${ms} ms; server output:\n${server.output()}`);
    await sleep(100);
  }
}

async function signIn(email: string) {
  const boot = await fetch(`${server.url}/v1/health`);
  const set = boot.headers.getSetCookie().join(';');
  const csrf = /csrf_token=([^;]+)/.exec(set)![1];
  // Before sign-in the token is bound to the anonymous browser id (harbor_pre), sent back as a browser would.
  const pre = /harbor_pre=([^;]+)/.exec(set)![1];
  const res = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: `harbor_pre=${pre}; csrf_token=${csrf}`,
      'x-csrf-token': csrf,
    },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  const session = /harbor_session=([^;]+)/.exec(res.headers.getSetCookie().join(';'))![1];
  return `harbor_session=${session}; csrf_token=${csrf}`;
}

interface Cable {
  ws: WebSocket;
  frames: Array<Record<string, any>>;
}

async function openCable(cookie: string): Promise<Cable> {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/cable`, { headers: { cookie, origin: server.url } });
  const frames: Array<Record<string, any>> = [];
  ws.on('message', (m) => frames.push(JSON.parse(String(m))));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, frames };
}

const IDENTIFIER = JSON.stringify({ channel: 'NotificationsChannel' });
let cookie: string;
let userId: number;
let cable: Cable;

describe('the server with REDIS_URL pointing at nothing', () => {
  it('keeps answering after a /cable subscription, and health says degraded', async () => {
    expect(await health()).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'degraded', redis: 'down' }),
    });
    cookie = await signIn('agent@demo.harbor.test');
    const me = await fetch(`${server.url}/v1/users/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    userId = ((await me.json()) as { id: number }).id;
    cable = await openCable(cookie);
    cable.ws.send(JSON.stringify({ command: 'subscribe', identifier: IDENTIFIER }));
    await eventually(async () => cable.frames.some((f) => f.type === 'confirm_subscription'));
    // The unhandled MaxRetriesPerRequestError used to end the process about 2.5 s after the subscribe.
    await sleep(4_000);
    expect(server.exitCode()).toBeNull();
    expect((await health()).body).toMatchObject({ status: 'degraded', redis: 'down' });
    expect((await fetch(`${server.url}/v1/users/me`, { headers: { cookie } })).status).toBe(200);
  }, 60_000);
});

describe('Redis coming up, going down and coming back', () => {
  it('delivers live messages once Redis is there, keeps serving while it is gone, and resumes after', async () => {
    const publisher = () => new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    const publishUntilHeard = async (title: string) => {
      const p = publisher();
      await p.connect();
      try {
        // The server resubscribes on reconnect; publish until its subscription is back.
        await eventually(async () => {
          // The bus's channels carry the deployment's namespace (JOBS_QUEUE).
          await p.publish(`${queue}:user:${userId}:notifications`, JSON.stringify({ title }));
          await sleep(100);
          return cable.frames.some((f) => f.identifier === IDENTIFIER && f.message?.title === title);
        });
      } finally {
        p.disconnect();
      }
    };

    await redis.start();
    await eventually(async () => (await health()).body.status === 'ok');
    await publishUntilHeard('first');

    await redis.stop();
    await eventually(async () => (await health()).body.redis === 'down');
    await sleep(3_000);
    expect(server.exitCode()).toBeNull();
    expect((await fetch(`${server.url}/v1/users/me`, { headers: { cookie } })).status).toBe(200);

    await redis.start();
    await eventually(async () => (await health()).body.status === 'ok');
    await publishUntilHeard('after restart');
    expect(server.exitCode()).toBeNull();
    cable.ws.close();
  }, 90_000);
});
