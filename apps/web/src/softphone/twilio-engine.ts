/**
 * The production engine: Twilio's Voice SDK. A Device registers with the access token of
 * GET /v1/dialer/fetch_device_token (a VoiceGrant naming our TwiML app, incoming allowed) and renews it in place when
 * Twilio says it is about to expire. engine.ts imports this file only when the token says `twilio`, so the SDK is a
 * lazy chunk of its own that no page downloads up front.
 *
 * Every call is a conference on the server (docs/decisions/voice-provider.md). An outbound connect makes Twilio ask
 * POST /v1/voice/twiml/outbound, which puts this leg into the call's conference and adds the carrier leg. So the
 * SDK's `accept` of an outbound call means "in the conference", not "the far end answered": it is reported as
 * ringing, and the server's `in-progress` on the call channel starts the counter (controller.ts). Busy, no answer
 * and declined happen to the carrier leg, so they too arrive from the server, with the call's error code.
 */
import { type DeviceToken, VOICE_ERRORS } from '@harbor/shared';
import { Call, Device } from '@twilio/voice-sdk';
import { type EngineCall, type EngineCallEvents, type IncomingCall, TOKEN_EARLY_MS, type VoiceEngine } from './engine';

/** What the SDK's errors carry (TwilioError): a numeric code and a message. */
interface CallError {
  code?: number;
  message?: string;
}

/** Twilio codes the spec does not list, onto the ones it does; the codes it lists are Twilio's own. */
const ALIASES: Record<number, number> = {
  // The 1.x SDK's "user denied media"; 2.x reports 31401, but an error from getUserMedia may still carry 31208.
  31208: 31401,
  // Authentication failed, signature invalid, token invalid, token lifetime too long: the token is not usable.
  20151: 20101,
  31201: 20101,
  31202: 20101,
  31204: 20101,
  31207: 20101,
  31205: 20104,
  // The local or remote session description was refused: the media connection cannot be made.
  53400: 53405,
  53402: 53405,
};
const TOKEN_ERRORS = new Set([20101, 20104]);

/** A Twilio error onto the spec's voice error codes; null for none (a normal hangup). */
export function codeOfTwilioError(error: CallError | null | undefined): number | null {
  if (!error) return null;
  const code = typeof error.code === 'number' ? error.code : 31000;
  if (VOICE_ERRORS[code]) return code;
  return ALIASES[code] ?? 31000;
}

/** How long destroy() waits for Twilio to confirm the unregister before closing the Device anyway. */
const UNREGISTER_WAIT_MS = 2_000;

/** Reports one call's life to the panel's events, once; `done` runs when it has ended. */
function follow(call: Call, events: EngineCallEvents, outbound: boolean, done: () => void) {
  let error: CallError | null = null;
  let closing = false;
  let ended = false;
  const end = (cause: CallError | null) => {
    if (ended) return;
    ended = true;
    done();
    events.ended({ code: codeOfTwilioError(cause), message: cause?.message ?? null });
  };
  call.on('ringing', () => events.ringing());
  call.on('accept', () => (outbound ? events.ringing() : events.answered()));
  call.on('error', (e: CallError) => {
    error = e;
    // An error that ends the call comes in the same turn as its `disconnect`: before it (the gateway's hangup with
    // an error) or after it (no microphone, the media connection lost). One that does not end the call (digits that
    // could not be sent) is forgotten after this turn, so a later normal hangup is not reported as a failure.
    queueMicrotask(() => {
      if (!closing) error = null;
    });
  });
  call.on('disconnect', () => {
    closing = true;
    queueMicrotask(() => end(error));
  });
  // The caller gave up before we answered, or we declined: a normal end, and the SDK sends no `disconnect` after it.
  call.on('cancel', () => end(null));
  call.on('reject', () => end(null));
}

function control(call: Call): EngineCall {
  return {
    // An incoming call not answered yet is declined; anything else is hung up.
    hangup: () => (call.status() === Call.State.Pending ? call.reject() : call.disconnect()),
    mute: (on) => call.mute(on),
    // Twilio reads `w` as a half-second pause, as the spec's keypad means it.
    sendDigits: (digits) => call.sendDigits(digits),
    accept: () => call.accept(),
    reject: () => call.reject(),
  };
}

/**
 * An outbound call before Twilio has made it: Device.connect answers a promise, the controller needs the call's
 * controls at once. What is asked before the call exists is done when it does.
 */
class OutboundCall implements EngineCall {
  private call: Call | null = null;
  private hungUp = false;
  private muted = false;

  constructor(made: Promise<Call>, events: EngineCallEvents, track: (call: Call) => () => void) {
    made.then(
      (call) => {
        this.call = call;
        follow(call, events, true, track(call));
        if (this.hungUp) call.disconnect();
        else if (this.muted) call.mute(true);
      },
      (err: CallError) => events.ended({ code: codeOfTwilioError(err) ?? 31000, message: err?.message ?? null }),
    );
  }

  hangup() {
    this.hungUp = true;
    this.call?.disconnect();
  }

  mute(on: boolean) {
    this.muted = on;
    this.call?.mute(on);
  }

  sendDigits(digits: string) {
    // Digits pressed before Twilio has made the call have no one to hear them: dropped.
    this.call?.sendDigits(digits);
  }

  // An outbound call has nothing to answer or decline.
  accept() {}

  reject() {}
}

export class TwilioEngine implements VoiceEngine {
  readonly renewsToken = true;
  private readonly device: Device;
  private readonly calls = new Set<Call>();
  private statusCb: ((status: 'READY' | 'DISCONNECTED') => void) | null = null;
  private lastStatus: 'READY' | 'DISCONNECTED' | null = null;
  private incomingCb: ((call: IncomingCall) => void) | null = null;
  // Set by destroy(): the Device still speaks while it unregisters, and must reach no one.
  private destroyed = false;

  constructor(
    token: string,
    private readonly refresh: () => Promise<DeviceToken>,
  ) {
    this.device = new Device(token, { tokenRefreshMs: TOKEN_EARLY_MS });
    this.device.on('registered', () => this.status('READY'));
    this.device.on('unregistered', () => this.status('DISCONNECTED'));
    this.device.on('error', (error: CallError, call?: Call) => {
      // Spec §4: a device error is only logged. One about a call ends through that call's own events.
      console.info('Softphone: Twilio device error', error?.code, error?.message);
      if (call) return;
      // A token Twilio refuses leaves the device unable to take calls; other errors (a reconnecting socket) leave it
      // as registered as it says it is, and its next registered/unregistered event says the rest.
      const usable = !TOKEN_ERRORS.has(codeOfTwilioError(error) ?? 0) && this.device.state === Device.State.Registered;
      this.status(usable ? 'READY' : 'DISCONNECTED');
    });
    this.device.on('tokenWillExpire', () => void this.renew());
    this.device.on('incoming', (call: Call) => this.incoming(call));
    this.device.register().catch((err: CallError) => {
      console.info('Softphone: Twilio registration failed', err?.code, err?.message);
      this.status('DISCONNECTED');
    });
  }

  private status(s: 'READY' | 'DISCONNECTED') {
    if (this.destroyed) return;
    this.lastStatus = s;
    this.statusCb?.(s);
  }

  /** Keeps a call until it ends, so destroy() can end it; answers what to run when it has. */
  private track(call: Call) {
    this.calls.add(call);
    return () => this.calls.delete(call);
  }

  private incoming(call: Call) {
    // Without a panel to ring there is no one to answer: leave it to ring out elsewhere.
    if (this.destroyed || !this.incomingCb) return;
    const done = this.track(call);
    this.incomingCb({
      ...control(call),
      from: call.parameters.From ?? '',
      on: (events) => follow(call, events, false, done),
    });
  }

  /** Twilio's `tokenWillExpire` (TOKEN_EARLY_MS before expiry): the same token route, applied to the live Device. */
  private async renew() {
    try {
      const next = await this.refresh();
      if (this.destroyed) return;
      // A reply without a Twilio token (voice switched off meanwhile) is not applied: the old token runs out, and
      // the device reports DISCONNECTED.
      if (next.provider === 'twilio' && next.token) this.device.updateToken(next.token);
    } catch (err) {
      console.info('Softphone: the device token could not be renewed', err);
    }
  }

  onStatus(cb: (status: 'READY' | 'DISCONNECTED') => void) {
    this.statusCb = cb;
    // Registration may have finished, or failed, before the controller asked.
    if (this.lastStatus) cb(this.lastStatus);
  }

  onIncoming(cb: (call: IncomingCall) => void) {
    this.incomingCb = cb;
  }

  connect(to: string, callId: string, events: EngineCallEvents): EngineCall {
    // The TwiML app's request carries these two, and Twilio adds From (our identity) and CallSid. `cid` is what
    // POST /v1/voice/twiml/outbound acts on: the call must be this person's, outbound and still initiated. `To` names
    // the leg in Twilio's logs; the carrier leg dials the number the server accepted, whatever the browser says.
    const made = this.device.connect({ params: { To: to, cid: callId } });
    return new OutboundCall(made, events, (call) => this.track(call));
  }

  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const call of this.calls) control(call).hangup();
    this.calls.clear();
    const device = this.device;
    const close = () => device.destroy();
    if (device.state !== Device.State.Registered) return close();
    // Unregister first, so Twilio stops offering calls to this browser before its connection closes (destroy alone
    // tears the connection down before the unregister could be sent); bounded, a sign-out does not wait on it.
    const wait = new Promise<void>((resolve) => setTimeout(resolve, UNREGISTER_WAIT_MS));
    void Promise.race([device.unregister(), wait]).then(close, close);
  }
}
