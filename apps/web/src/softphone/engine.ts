/**
 * The voice engine behind the panel: places and takes the media of a call. The local lab's engine is JsSIP
 * (SIP over WebSocket to Kamailio; loaded only when the token says `sip`, so no page's download carries it).
 * SIP failures map onto the spec's voice error codes (voiceErrorOf). Twilio's browser SDK is the production engine's
 * place (docs/decisions/voice-provider.md).
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

export interface VoiceEngine {
  connect(to: string, headers: string[], events: EngineCallEvents): EngineCall;
  onIncoming(cb: (call: IncomingCall) => void): void;
  onStatus(cb: (status: 'READY' | 'DISCONNECTED') => void): void;
  destroy(): void;
}

/** The engine for a token, or null when the service has none the browser can drive. */
export async function engineFor(token: DeviceToken): Promise<VoiceEngine | null> {
  if (token.provider === 'sip' && token.sip && token.token) {
    const { SipEngine } = await import('./sip-engine');
    return new SipEngine(token.sip, token.token);
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
