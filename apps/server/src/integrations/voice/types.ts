/** The voice port's types (port.ts picks the adapter; the adapters import only this file: no cycle). */
export interface VoiceToken {
  token: string;
  identity: string;
  expiresAt: Date;
  /** The lab's JsSIP settings; null for Twilio. */
  sip: { ws_url: string; uri: string; username: string } | null;
}

/** The provider's handle on a live call: the conference (Twilio) or the SIP Call-ID (lab). */
export interface CallRef {
  id: number;
  room: string | null;
}

export interface CarrierLeg {
  callId: number;
  from: string;
  to: string;
  /** Seconds the wallet and the allocation pay for (the provider cuts the call there). */
  timeLimitS: number | null;
  /** Where the provider posts the leg's status (signed). */
  statusUrl: string;
}

export interface VoicePort {
  readonly provider: 'twilio' | 'sip' | 'none';
  token(identity: string): VoiceToken | null;
  /** Adds the carrier (or, inbound, the agent's client) leg to the call's room; answers the leg's id. */
  addLeg(leg: CarrierLeg): Promise<{ sid: string }>;
  setRecording(call: CallRef, on: boolean): Promise<void>;
  playDisclaimer(call: CallRef, announceUrl: string): Promise<void>;
  hangup(call: CallRef): Promise<void>;
}

export class VoiceUnavailable extends Error {}

export const roomOf = (callId: number) => `call-${callId}`;
