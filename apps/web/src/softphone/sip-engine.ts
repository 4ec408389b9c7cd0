/**
 * The local lab's engine: JsSIP registers at Kamailio over WebSocket with the autheph credentials of the token
 * (username `<expiry>:<identity>`, password the token), places calls as `sip:<number>@<domain>` with the accepted
 * call's id in X-Harbor-Call, and answers incoming INVITEs. Remote audio plays through one <audio> element.
 */
import JsSIP from 'jssip';
import type { RTCSession } from 'jssip/lib/RTCSession';
import { codeOfCause, type EngineCall, type EngineCallEvents, type IncomingCall, type VoiceEngine } from './engine';

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
  // The autheph username carries the expiry and JsSIP cannot change it on a running UA: the controller builds a new
  // engine on a fresh token instead.
  readonly renewsToken = false;
  private ua: JsSIP.UA;
  private domain: string;

  constructor(sip: { ws_url: string; uri: string; username: string }, password: string) {
    this.domain = sip.uri.split('@')[1] ?? '127.0.0.1';
    this.ua = new JsSIP.UA({
      sockets: [new JsSIP.WebSocketInterface(sip.ws_url)],
      uri: sip.uri,
      authorization_user: sip.username,
      password,
      register: true,
      session_timers: false,
    });
    this.ua.start();
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
    this.ua.stop();
  }
}
