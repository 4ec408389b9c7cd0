/**
 * The local voice lab (docs/decisions/voice-local-lab.md): JsSIP in the browser registers at Kamailio over
 * WebSocket with short-lived credentials (Kamailio `autheph`: username `<expiry>:<identity>`, password
 * base64(HMAC-SHA1(secret, username))), the local twin of a Twilio access token. Media goes through rtpengine,
 * whose ng control protocol (bencoded dictionaries over UDP) switches a call's recording on and off and plays the
 * disclaimer. The call's room is its SIP Call-ID.
 */
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import type { SipVoiceConfig } from './config.js';
import type { CallRef, VoicePort, VoiceToken } from './types.js';
import { VoiceUnavailable } from './types.js';

export function autheph(secret: string, identity: string, ttlS: number, now = Date.now()) {
  const expiry = Math.floor(now / 1000) + ttlS;
  const username = `${expiry}:${identity}`;
  const password = crypto.createHmac('sha1', secret).update(username).digest('base64');
  return { username, password, expiresAt: new Date(expiry * 1000) };
}

type Ben = string | number | Ben[] | { [k: string]: Ben };

export function bencode(v: Ben): string {
  if (typeof v === 'number') return `i${Math.trunc(v)}e`;
  if (typeof v === 'string') return `${Buffer.byteLength(v)}:${v}`;
  if (Array.isArray(v)) return `l${v.map(bencode).join('')}e`;
  const keys = Object.keys(v).sort();
  return `d${keys.map((k) => bencode(k) + bencode(v[k])).join('')}e`;
}

export function bdecode(s: string): Ben {
  let i = 0;
  const next = (): Ben => {
    const c = s[i];
    if (c === 'i') {
      const end = s.indexOf('e', i);
      const n = Number(s.slice(i + 1, end));
      i = end + 1;
      return n;
    }
    if (c === 'l' || c === 'd') {
      i++;
      const list: Ben[] = [];
      while (s[i] !== 'e') list.push(next());
      i++;
      if (c === 'l') return list;
      const o: Record<string, Ben> = {};
      for (let k = 0; k < list.length; k += 2) o[String(list[k])] = list[k + 1];
      return o;
    }
    const colon = s.indexOf(':', i);
    const len = Number(s.slice(i, colon));
    const str = Buffer.from(s.slice(colon + 1), 'utf8')
      .subarray(0, len)
      .toString('utf8');
    i = colon + 1 + str.length;
    return str;
  };
  return next();
}

/** One ng command and its answer (1 s timeout, one retry: UDP may drop). */
export async function ngCommand(address: string, command: Record<string, Ben>): Promise<Record<string, Ben>> {
  const [host, portText] = address.split(':');
  const port = Number(portText);
  for (let attempt = 0; attempt < 2; attempt++) {
    const cookie = crypto.randomBytes(6).toString('hex');
    const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
    try {
      const reply = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('rtpengine did not answer')), 1000);
        socket.on('message', (msg) => {
          const text = msg.toString('utf8');
          if (!text.startsWith(`${cookie} `)) return;
          clearTimeout(timer);
          resolve(text.slice(cookie.length + 1));
        });
        socket.send(`${cookie} ${bencode(command)}`, port, host, (err) => err && reject(err));
      });
      const out = bdecode(reply) as Record<string, Ben>;
      if (out.result !== 'ok') throw new VoiceUnavailable(`rtpengine: ${String(out['error-reason'] ?? out.result)}`);
      return out;
    } catch (err) {
      if (err instanceof VoiceUnavailable || attempt === 1) throw err;
    } finally {
      socket.close();
    }
  }
  throw new Error('unreachable');
}

export class SipVoice implements VoicePort {
  readonly provider = 'sip' as const;

  constructor(
    private readonly cfg: SipVoiceConfig,
    private readonly ttlS: number,
  ) {}

  token(identity: string): VoiceToken {
    const t = autheph(this.cfg.secret, identity, this.ttlS);
    return {
      token: t.password,
      identity,
      expiresAt: t.expiresAt,
      sip: { ws_url: this.cfg.wsUrl, uri: `sip:${identity}@${this.cfg.domain}`, username: t.username },
    };
  }

  /** The lab has no carrier to add legs on: the browser's INVITE goes through Kamailio to the number itself. */
  async addLeg(): Promise<{ sid: string }> {
    throw new VoiceUnavailable('the local lab dials from the browser');
  }

  private ng(call: CallRef, command: string, extra: Record<string, Ben> = {}) {
    if (!this.cfg.rtpengineNg) throw new VoiceUnavailable('rtpengine is not configured (VOICE_RTPENGINE_NG)');
    if (!call.room) throw new VoiceUnavailable('the call is not connected yet');
    return ngCommand(this.cfg.rtpengineNg, { command, 'call-id': call.room, ...extra });
  }

  async setRecording(call: CallRef, on: boolean) {
    await this.ng(call, on ? 'start recording' : 'stop recording');
  }

  /**
   * rtpengine plays the recorded disclaimer (VOICE_SIP_DISCLAIMER_FILE, a file on the rtpengine host) to every party
   * of the call, so the caller and the agent both hear it, as Twilio's conference announcement does. The
   * announcement URL is Twilio's; the lab has its file.
   */
  async playDisclaimer(call: CallRef) {
    const file = this.cfg.disclaimerFile;
    if (!file) throw new VoiceUnavailable('no recorded disclaimer is configured (VOICE_SIP_DISCLAIMER_FILE)');
    const q = await this.ng(call, 'query');
    const tags = Object.keys((q.tags as Record<string, Ben> | undefined) ?? {}).filter(Boolean);
    if (tags.length === 0) throw new VoiceUnavailable('the call has no media yet');
    for (const tag of tags) await this.ng(call, 'play media', { 'from-tag': tag, file });
  }

  async hangup(call: CallRef) {
    await this.ng(call, 'delete');
  }
}
