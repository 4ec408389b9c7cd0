/**
 * The voice port (docs/decisions/voice-provider.md): what the dialer asks of a voice service. Each call is a room of
 * its own (`call-<id>`: a Twilio conference, or the lab's SIP dialog) with the agent's browser leg and the carrier
 * leg, so recording, the disclaimer and hangup act on the whole call whichever side started it.
 */
import type { VoiceConfig } from './config.js';
import { SipVoice } from './sip.js';
import { TwilioVoice } from './twilio.js';
import { type VoicePort, VoiceUnavailable } from './types.js';

export * from './types.js';

/** No voice service configured (the embedded default): no token, every action refused. */
export class NoVoice implements VoicePort {
  readonly provider = 'none' as const;
  token() {
    return null;
  }
  private refuse(): never {
    throw new VoiceUnavailable('the voice service is not configured');
  }
  addLeg(): Promise<{ sid: string }> {
    this.refuse();
  }
  setRecording(): Promise<void> {
    this.refuse();
  }
  playDisclaimer(): Promise<void> {
    this.refuse();
  }
  hangup(): Promise<void> {
    this.refuse();
  }
}

export function voicePortFor(config: VoiceConfig): VoicePort {
  if (config.provider === 'twilio' && config.twilio) return new TwilioVoice(config.twilio, config.tokenTtlS);
  if (config.provider === 'sip' && config.sip) return new SipVoice(config.sip, config.tokenTtlS);
  return new NoVoice();
}
