/**
 * The local lab's engine: JsSIP registers at Kamailio over WebSocket with the autheph credentials of the token
 * (username `<expiry>:<identity>`, password the token), places calls as `sip:<number>@<domain>` with the accepted
 * call's id in X-Harbor-Call, and answers incoming INVITEs. Remote audio plays through one <audio> element. Before the
 * token expires it fetches the next and registers again with it on the same UA, so a call outlives its token.
 */

import type { DeviceToken } from '@harbor/shared';
import JsSIP from 'jssip';
import type { RTCSession } from 'jssip/lib/RTCSession';
import {
  codeOfCause,
  type EngineCall,
  type EngineCallEvents,
  type IncomingCall,
  TOKEN_EARLY_MS,
  type VoiceEngine,
} from './engine';

type SipCredentials = NonNullable<DeviceToken['sip']>;

const MEDIA = { audio: true, video: false };
// Loopback lab: no STUN or TURN to wait for (ICE gathering would otherwise take its full timeout).
const PC_CONFIG = { iceServers: [] };

function audioSink(): HTMLAudioElement {
  let el = document.getElementById('softphone-remote-audio') as HTMLAudioElement | null;
  if (!el) {
    el = document.createElement('audio');
    el.id = 'softphone-remote-audio';
    el.autoplay = true;
    document.body.appendChild(el);
  }
  return el;
}

function wire(session: RTCSession, events: EngineCallEvents) {
  const attach = () => {
    const pc = session.connection;
    if (!pc) return;
    pc.addEventListener('track', (e) => {
      audioSink().srcObject = e.streams[0] ?? new MediaStream([e.track]);
    });
  };
  if (session.connection) attach();
  else session.on('peerconnection', attach);
  session.on('progress', () => events.ringing());
  session.on('confirmed', () => events.answered());
  session.on('ended', (e) => events.ended({ code: codeOfCause(e.cause), message: null }));
  session.on('failed', (e) => {
    const status = (e.message as { status_code?: number } | undefined)?.status_code;
    events.ended({ code: codeOfCause(e.cause, status), message: e.cause ?? null });
  });
}

function control(session: RTCSession): EngineCall {
  return {
    hangup: () => {
      if (!session.isEnded()) session.terminate();
    },
    mute: (on) => (on ? session.mute({ audio: true }) : session.unmute({ audio: true })),
    sendDigits: (digits) => session.sendDTMF(digits.replace(/w/g, ','), { duration: 160, interToneGap: 70 }),
    accept: () => session.answer({ mediaConstraints: MEDIA, pcConfig: PC_CONFIG }),
    reject: () => session.terminate({ status_code: 603 }),
  };
}

export class SipEngine implements VoiceEngine {
  // The autheph username carries the expiry: a fresh token's username and password are set on the running UA and it
  // registers again, so a call in progress goes on (building a new UA would end it).
  readonly renewsToken = true;
  private ua: JsSIP.UA;
  private domain: string;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private destroyed = false;

  constructor(
    token: DeviceToken & { sip: SipCredentials; token: string },
    private readonly refresh: () => Promise<DeviceToken>,
  ) {
    this.domain = token.sip.uri.split('@')[1] ?? '127.0.0.1';
    this.ua = new JsSIP.UA({
      sockets: [new JsSIP.WebSocketInterface(token.sip.ws_url)],
      uri: token.sip.uri,
      authorization_user: token.sip.username,
      password: token.token,
      register: true,
      session_timers: false,
    });
    this.ua.start();
    this.renewBefore(token.expires_at);
  }

  /** Asks for the next token TOKEN_EARLY_MS before this one expires (spec §9), at the earliest in 30 s. */
  private renewBefore(expiresAt: string | null) {
    if (!expiresAt || this.destroyed) return;
    const wait = new Date(expiresAt).getTime() - Date.now() - TOKEN_EARLY_MS;
    this.timer = setTimeout(() => void this.renew(), Math.max(wait, 30_000));
  }

  private async renew() {
    try {
      const next = await this.refresh();
      if (this.destroyed) return;
      // A reply without lab credentials (voice switched off meanwhile) is not applied: the old ones run out, the
      // registration lapses and the device reports DISCONNECTED.
      if (next.provider !== 'sip' || !next.sip || !next.token) return;
      this.ua.set('authorization_user', next.sip.username);
      this.ua.set('password', next.token);
      this.ua.register();
      this.renewBefore(next.expires_at);
    } catch (err) {
      console.info('Softphone: the device token could not be renewed', err);
      // Tried again while the current credentials still hold (the next try is at the earliest in 30 s).
      this.renewBefore(new Date(Date.now() + TOKEN_EARLY_MS).toISOString());
    }
  }

  onStatus(cb: (status: 'READY' | 'DISCONNECTED') => void) {
    this.ua.on('registered', () => cb('READY'));
    this.ua.on('unregistered', () => cb('DISCONNECTED'));
    this.ua.on('registrationFailed', () => cb('DISCONNECTED'));
    this.ua.on('disconnected', () => cb('DISCONNECTED'));
  }

  connect(to: string, callId: string, events: EngineCallEvents): EngineCall {
    const target = `sip:${to.replace(/^\+/, '')}@${this.domain}`;
    const extraHeaders = [`X-Harbor-Call: ${callId}`];
    const session = this.ua.call(target, { mediaConstraints: MEDIA, pcConfig: PC_CONFIG, extraHeaders });
    wire(session, events);
    return control(session);
  }

  onIncoming(cb: (call: IncomingCall) => void) {
    this.ua.on('newRTCSession', (e: { originator: string; session: RTCSession }) => {
      if (e.originator !== 'remote') return;
      const s = e.session;
      cb({ ...control(s), from: s.remote_identity.uri.user, on: (events) => wire(s, events) });
    });
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.timer);
    this.ua.stop();
  }
}
