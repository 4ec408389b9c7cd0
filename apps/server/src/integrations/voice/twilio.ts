/**
 * Twilio Programmable Voice. The browser's Voice SDK connects with an AccessToken carrying a VoiceGrant; Twilio asks
 * our TwiML (modules/dialer/twiml-routes.ts), which puts the leg into the conference `call-<id>`; the other leg is
 * added through the Participants API. Recording pause/resume and the disclaimer act on the conference (Conference
 * Recordings API, AnnounceUrl), so they reach both parties. REST calls go to `apiBase` (a loopback stand-in in tests).
 */
import twilio from 'twilio';
import type { TwilioVoiceConfig } from './config.js';
import { type CallRef, type CarrierLeg, roomOf, type VoicePort, type VoiceToken, VoiceUnavailable } from './types.js';

export class TwilioVoice implements VoicePort {
  readonly provider = 'twilio' as const;

  constructor(
    private readonly cfg: TwilioVoiceConfig,
    private readonly ttlS: number,
  ) {}

  token(identity: string): VoiceToken {
    const { AccessToken } = twilio.jwt;
    const t = new AccessToken(this.cfg.accountSid, this.cfg.apiKey, this.cfg.apiSecret, { identity, ttl: this.ttlS });
    t.addGrant(new AccessToken.VoiceGrant({ outgoingApplicationSid: this.cfg.twimlAppSid, incomingAllow: true }));
    return { token: t.toJwt(), identity, expiresAt: new Date(Date.now() + this.ttlS * 1000), sip: null };
  }

  private async rest(path: string, form: Record<string, string>) {
    const url = `${this.cfg.apiBase}/2010-04-01/Accounts/${this.cfg.accountSid}${path}`;
    const auth = Buffer.from(`${this.cfg.accountSid}:${this.cfg.authToken}`).toString('base64');
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) throw new VoiceUnavailable(`Twilio answered ${res.status} to ${path}: ${text.slice(0, 200)}`);
    return JSON.parse(text || '{}') as Record<string, unknown>;
  }

  async addLeg(leg: CarrierLeg) {
    const form: Record<string, string> = {
      From: leg.from,
      To: leg.to,
      Timeout: '60',
      EarlyMedia: 'true',
      EndConferenceOnExit: 'true',
      StatusCallback: leg.statusUrl,
      StatusCallbackEvent: 'initiated ringing answered completed',
    };
    if (leg.timeLimitS) form.TimeLimit = String(leg.timeLimitS);
    const r = await this.rest(`/Conferences/${roomOf(leg.callId)}/Participants.json`, form);
    return { sid: String(r.call_sid ?? '') };
  }

  private conference(call: CallRef) {
    // The conference SID arrives with its first status callback; until then the call is still ringing.
    if (!call.room) throw new VoiceUnavailable('the call is not connected yet');
    return call.room;
  }

  async setRecording(call: CallRef, on: boolean) {
    const cf = this.conference(call);
    await this.rest(`/Conferences/${cf}/Recordings/Twilio.CURRENT.json`, { Status: on ? 'in-progress' : 'paused' });
  }

  async playDisclaimer(call: CallRef, announceUrl: string) {
    await this.rest(`/Conferences/${this.conference(call)}.json`, { AnnounceUrl: announceUrl, AnnounceMethod: 'POST' });
  }

  async hangup(call: CallRef) {
    await this.rest(`/Conferences/${this.conference(call)}.json`, { Status: 'completed' });
  }

  /** Downloads a finished recording (RecordingUrl + .wav, with the account's credentials). */
  async download(recordingUrl: string): Promise<Buffer> {
    const auth = Buffer.from(`${this.cfg.accountSid}:${this.cfg.authToken}`).toString('base64');
    const res = await fetch(`${recordingUrl}.wav`, {
      headers: { authorization: `Basic ${auth}` },
      signal: AbortSignal.timeout(60_000),
    });
    if (!res.ok) throw new Error(`recording download answered ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
}

/** The TwiML putting a leg into the call's conference (recorded from the start; the owner pauses it). */
export function conferenceTwiml(opts: {
  callId: number;
  record: boolean;
  statusUrl: string;
  recordingUrl: string;
  timeLimitS: number | null;
}) {
  const r = new twilio.twiml.VoiceResponse();
  const dial = r.dial(opts.timeLimitS ? { timeLimit: opts.timeLimitS } : {});
  dial.conference(
    {
      startConferenceOnEnter: true,
      endConferenceOnExit: true,
      beep: 'false',
      record: opts.record ? 'record-from-start' : 'do-not-record',
      recordingStatusCallback: opts.recordingUrl,
      recordingStatusCallbackEvent: ['completed'],
      statusCallback: opts.statusUrl,
      statusCallbackEvent: ['start', 'end'],
    },
    roomOf(opts.callId),
  );
  return r.toString();
}

export function sayTwiml(text: string) {
  const r = new twilio.twiml.VoiceResponse();
  r.say(text);
  return r.toString();
}
