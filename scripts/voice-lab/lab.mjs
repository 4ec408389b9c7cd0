// The local voice lab's processes (docs/decisions/voice-local-lab.md): rtpengine (media, DTLS-SRTP <-> RTP, pcap
// recording), Kamailio with our configuration (kamailio-cfg.mjs), the relay that signs call events and recordings
// for Harbor (relay.mjs, its call state in relay-state.json), and SIPp answering outbound calls (sipp.mjs). All on
// loopback, in a directory of its own.
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { APT_ARGS, APT_LOCK } from '../chromium.mjs';
import { kamailioConfig } from './kamailio-cfg.mjs';
import { startRelay } from './relay.mjs';
import { ANSWERER_XML, carrierXml } from './sipp.mjs';

/** The lab's ports: SIP/WS 5160-5199, RTP 30000-30999, HTTP 3300-3309 (TEAM.md), each overridable. */
export const LAB_PORTS = { sip: 5160, ws: 5161, ng: 5162, cli: 5163, answerer: 5170, carrier: 5171, relay: 3300 };
const RTP = { min: 30000, max: 30799, answerer: 30900, carrier: 30950 };
const HOST = '127.0.0.1';
export const KAMAILIO_MODULES = '/usr/lib/x86_64-linux-gnu/kamailio/modules';

/** Debian packages the lab needs, with the file that proves each is there. */
export const LAB_PACKAGES = [
  ['kamailio', '/usr/sbin/kamailio'],
  ['kamailio-websocket-modules', `${KAMAILIO_MODULES}/websocket.so`],
  // http_client (call events to the relay) ships in -utils-modules, auth_ephemeral in -autheph-modules on bookworm
  // (neither is in -extra-modules, which the lab does not need).
  ['kamailio-utils-modules', `${KAMAILIO_MODULES}/http_client.so`],
  ['kamailio-autheph-modules', `${KAMAILIO_MODULES}/auth_ephemeral.so`],
  ['rtpengine-daemon', '/usr/bin/rtpengine'],
  ['sip-tester', '/usr/bin/sipp'],
  ['sox', '/usr/bin/sox'],
];

export const missingPackages = () => LAB_PACKAGES.filter(([, file]) => !fs.existsSync(file)).map(([p]) => p);

/** Installs what is missing with apt-get when we are root; answers what is still missing. */
export function ensureLabInstalled(log = console.log) {
  const missing = missingPackages();
  if (missing.length === 0 || process.getuid?.() !== 0) return missing;
  log(`Installing the voice lab's Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // One apt-get at a time (scripts/chromium.mjs): the browser flows may be installing Chromium beside us.
  const apt = (...args) =>
    execFileSync('flock', [APT_LOCK, 'apt-get', ...APT_ARGS, ...args], { stdio: 'inherit', env });
  const install = () => apt('install', '-y', '-qq', '--no-install-recommends', ...missing);
  try {
    install();
  } catch {
    apt('update', '-qq');
    install();
  }
  return missingPackages();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, check, child, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    if (child.exitCode !== null) throw new Error(`voice lab: ${what} exited (${child.exitCode}): see its log`);
    await sleep(100);
  }
  throw new Error(`voice lab: ${what} did not come up in ${ms / 1000} s`);
}

const tcpOpen = (port) =>
  new Promise((resolve) => {
    const s = net.connect({ host: HOST, port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

/** rtpengine answers an ng "ping" with "pong". */
const ngPing = (port) =>
  new Promise((resolve) => {
    const sock = dgram.createSocket('udp4');
    const done = (ok) => {
      clearTimeout(timer);
      sock.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 300);
    sock.on('message', (m) => done(m.toString().includes('pong')));
    sock.send('lab1 d7:command4:pinge', port, HOST, (err) => err && done(false));
  });

/**
 * Starts the lab. `appUrl` is where Harbor listens (the relay posts there); `secret` is shared with Harbor
 * (VOICE_SIP_SECRET). Answers the env Harbor needs, the directories, and stop().
 * @param {{ appUrl: string, secret?: string, dir?: string, ports?: Partial<typeof LAB_PORTS>, log?: (s: string) => void }} o
 */
export async function startLab(o) {
  const ports = { ...LAB_PORTS, ...o.ports };
  const log = o.log ?? (() => {});
  const secret = o.secret ?? crypto.randomBytes(24).toString('hex');
  const dir = o.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-voice-lab-'));
  const recordings = path.join(dir, 'rec');
  fs.mkdirSync(recordings, { recursive: true });
  fs.mkdirSync(path.join(dir, 'run'), { recursive: true });
  const children = [];
  const spawnLogged = (name, cmd, args) => {
    const out = fs.openSync(path.join(dir, `${name}.log`), 'a');
    // In our process group: whoever kills the group (Ctrl-C, a test runner) takes the lab with it.
    const child = spawn(cmd, args, { cwd: dir, stdio: ['ignore', out, out] });
    child.on('exit', (code, signal) => log(`voice lab: ${name} exited (${signal ?? code})`));
    children.push(child);
    return child;
  };
  const stop = async () => {
    await relay?.close();
    for (const c of children.reverse()) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      // Kamailio's main process stops its workers; rtpengine is exec'd by its shell (the same pid).
      c.kill('SIGTERM');
      await Promise.race([new Promise((r) => c.once('exit', r)), sleep(3000)]);
    }
  };

  // The disclaimer rtpengine plays into a call: a file on the rtpengine host (a recorded one in a real deployment).
  const disclaimer = path.join(dir, 'disclaimer.wav');
  execFileSync('sox', [
    '-n',
    '-r',
    '8000',
    '-c',
    '1',
    '-b',
    '16',
    disclaimer,
    'synth',
    '3',
    'sine',
    '660',
    'vol',
    '0.5',
  ]);
  fs.writeFileSync(path.join(dir, 'answerer.xml'), ANSWERER_XML);

  let relay = null;
  try {
    relay = await startRelay({
      port: ports.relay,
      appUrl: o.appUrl,
      secret,
      log,
      stateFile: path.join(dir, 'relay-state.json'),
      spool: recordings,
    });
    // rtpengine 10.5 dumps core when stopped with SIGTERM: no core files. --delete-delay=0: a deleted call is closed
    // at once (by default 30 s later), so its recording is complete, and handed to Harbor, right after the hangup.
    const rtpengine = spawnLogged('rtpengine', 'sh', [
      '-c',
      `ulimit -c 0; exec rtpengine --config-file=none --interface=${HOST} --listen-ng=${HOST}:${ports.ng} --listen-cli=${HOST}:${ports.cli} --table=-1 --foreground \
        --log-stderr --port-min=${RTP.min} --port-max=${RTP.max} --recording-dir=${recordings} \
        --recording-method=pcap --delete-delay=0 --log-level=5`,
    ]);
    await until('rtpengine', () => ngPing(ports.ng), rtpengine);
    const cfg = path.join(dir, 'kamailio.cfg');
    fs.writeFileSync(
      cfg,
      kamailioConfig({
        host: HOST,
        sipPort: ports.sip,
        wsPort: ports.ws,
        ngPort: ports.ng,
        carrier: `sip:${HOST}:${ports.answerer}`,
        relayUrl: relay.url,
        secret,
        modules: KAMAILIO_MODULES,
      }),
    );
    const kamailio = spawnLogged('kamailio', 'kamailio', ['-DD', '-E', '-f', cfg, '-Y', path.join(dir, 'run')]);
    await until('Kamailio', () => tcpOpen(ports.ws), kamailio);
    spawnLogged('answerer', 'sipp', [
      ...['-sf', 'answerer.xml', '-i', HOST, '-p', String(ports.answerer), '-mi', HOST, '-mp', String(RTP.answerer)],
      ...['-rtp_echo', '-nostdin', '-trace_err'],
    ]);
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    dir,
    recordings,
    disclaimer,
    relay,
    env: {
      VOICE_SIP_WS_URL: `ws://${HOST}:${ports.ws}`,
      VOICE_SIP_SECRET: secret,
      VOICE_SIP_DOMAIN: HOST,
      VOICE_RTPENGINE_NG: `${HOST}:${ports.ng}`,
      VOICE_SIP_DISCLAIMER_FILE: disclaimer,
      VOICE_SIP_RECORDINGS_URL: relay.recordingsUrl,
    },
    /** The carrier places one inbound call (see inboundCall). */
    inboundCall: (call) => inboundCall(dir, call, ports),
    stop,
  };
}

/**
 * The carrier (SIPp) places one inbound call to the dialed number `to` with the caller id `from`, hanging up after
 * holdMs unless the agent does first; resolves with SIPp's exit code (0: the call was answered and ended cleanly).
 * `hangUp()` stops SIPp: a flow that failed mid-call must not leave the carrier ringing into the next one.
 * @param {string} dir the lab's directory
 * @param {{ from: string, to: string, holdMs?: number }} call
 */
export function inboundCall(dir, { from, to, holdMs = 8000 }, ports = LAB_PORTS) {
  const file = path.join(dir, `carrier-${Date.now()}.xml`);
  fs.writeFileSync(file, carrierXml({ from, holdMs }));
  const args = [
    `${HOST}:${ports.sip}`,
    ...['-sf', file, '-s', to, '-i', HOST, '-p', String(ports.carrier), '-mi', HOST, '-mp', String(RTP.carrier)],
    ...['-rtp_echo', '-nostdin', '-m', '1', '-timeout', `${Math.ceil(holdMs / 1000) + 40}s`, '-trace_err'],
  ];
  const child = spawn('sipp', args, { cwd: dir, stdio: 'ignore' });
  const ended = new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  return Object.assign(ended, { hangUp: () => child.exitCode === null && child.kill('SIGKILL') });
}
