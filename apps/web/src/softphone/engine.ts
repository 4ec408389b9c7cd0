/**
 * The voice engine behind the panel: places and takes the media of a call. Each is loaded only when the device
 * token names its provider, so no page's download carries it: production's is Twilio's Voice SDK
 * (twilio-engine.ts), the local lab's is JsSIP (sip-engine.ts: SIP over WebSocket to Kamailio). Both report a failed
 * call with the spec's voice error codes (VOICE_ERRORS; JsSIP's causes through voiceErrorOf below, Twilio's codes
 * are mostly the spec's own). docs/decisions/voice-provider.md.
 */
import { type DeviceToken, voiceErrorOf } from '@harbor/shared';

export interface EngineCallEvents {
  ringing(): void;
  answered(): void;
  ended(cause: { code: number | null; message: string | null }): void;
}

export interface EngineCall {
  hangup(): void;
  mute(on: boolean): void;
  sendDigits(digits: string): void;
  accept(): void;
  reject(): void;
}

export interface IncomingCall extends EngineCall {
  from: string;
  on(events: EngineCallEvents): void;
}

/** Spec §9: the device token is refreshed 10 s before it expires. */
export const TOKEN_EARLY_MS = 10_000;

export interface VoiceEngine {
  /** Places a call to `to` for the call the server accepted (`callId`, the `cid` of POST /v1/dialer/calls). */
  connect(to: string, callId: string, events: EngineCallEvents): EngineCall;
  onIncoming(cb: (call: IncomingCall) => void): void;
  onStatus(cb: (status: 'READY' | 'DISCONNECTED') => void): void;
  /**
   * True when the engine renews its own token in place (Twilio's Device asks before expiry and keeps its calls);
   * otherwise the controller replaces the engine with one built on a fresh token. Both engines renew in place (the
   * lab's sets the new credentials on its running UA and registers again).
   */
  readonly renewsToken: boolean;
  destroy(): void;
}

/**
 * The engine for a token, or null when the service has none the browser can drive. `refresh` fetches a new device
 * token (the controller's GET /v1/dialer/fetch_device_token) for an engine that renews its own.
 */
export async function engineFor(token: DeviceToken, refresh: () => Promise<DeviceToken>): Promise<VoiceEngine | null> {
  if (token.provider === 'twilio' && token.token) {
    const { TwilioEngine } = await import('./twilio-engine');
    return new TwilioEngine(token.token, refresh);
  }
  if (token.provider === 'sip' && token.sip && token.token) {
    const { SipEngine } = await import('./sip-engine');
    return new SipEngine({ ...token, sip: token.sip, token: token.token }, refresh);
  }
  return null;
}

/** JsSIP's failure causes onto the spec's voice error codes. */
export function codeOfCause(cause: string | undefined, sipStatus?: number): number | null {
  switch (cause) {
    case undefined:
    case 'Terminated':
    case 'Bye':
    case 'Canceled':
      return null;
    case 'Busy':
      return voiceErrorOf({ sipStatus: 486 });
    case 'Rejected':
      return voiceErrorOf({ sipStatus: 603 });
    case 'Unavailable':
    case 'No Answer':
    case 'Request Timeout':
      return voiceErrorOf({ sipStatus: 480 });
    case 'Not Found':
      return voiceErrorOf({ sipStatus: 404 });
    case 'WebRTC Error':
    case 'RTP Timeout':
    case 'Incompatible SDP':
      return voiceErrorOf({ kind: 'media' });
    case 'Connection Error':
      return voiceErrorOf({ kind: 'transport' });
    case 'User Denied Media Access':
      return voiceErrorOf({ kind: 'mic' });
    default:
      return voiceErrorOf({ sipStatus });
  }
}
