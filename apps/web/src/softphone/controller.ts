/**
 * What the panel's buttons and the live call channel do (spec §4 phone panel, §5 validation, §6 screen pop): the
 * server accepts every dial first (POST /v1/dialer/calls: the gates), then the engine connects; recording and the
 * disclaimer change only on the server's answer; a call event from /cable opens the panel on the incoming view.
 */
import {
  CALL_ALREADY_ACTIVE,
  CALLS_CHANNEL,
  CallsChannelMessage,
  DTMF_DIGITS,
  dialNumberProblem,
  ILLEGAL_DIGITS,
  NO_CALL_READY,
  NO_DEVICE_READY,
  VOICE_ERRORS,
} from '@harbor/shared';
import { ApiError, errorMessage } from '../api/client';
import { dialerApi } from '../api/dialer';
import { subscribe } from '../live/cable';
import { registerDialer } from './dial';
import {
  type EngineCall,
  type EngineCallEvents,
  engineFor,
  type IncomingCall,
  TOKEN_EARLY_MS,
  type VoiceEngine,
} from './engine';
import { endCall, getPhone, setPhone } from './store';

/** Spec §9: the screen pop waits 500 ms (the token is refreshed TOKEN_EARLY_MS before it expires). */
const SCREEN_POP_MS = 500;
const TERMINAL = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

let engine: VoiceEngine | null = null;
let current: EngineCall | null = null;
let ringing: IncomingCall | null = null;
let navigate: (to: string) => void = () => {};

const describe = (code: number | null) => (code ? `${VOICE_ERRORS[code] ?? 'Call failed'} (${code})` : null);

function events(): EngineCallEvents {
  return {
    ringing: () => setPhone((s) => (s.phase === 'connecting' ? { phase: 'ringing' } : {})),
    answered: () => setPhone({ phase: 'active', answeredAt: Date.now() }),
    ended: ({ code }) => {
      // The panel may have ended the call already (a hangup, or the server's final status with its error code): the
      // engine's later word of a normal end changes nothing, and must not wipe that error.
      if (code === null && getPhone().phase === 'idle') return;
      current = null;
      ringing = null;
      endCall({ error: describe(code) });
    },
  };
}

export async function dial(number: string, contactNumber?: number) {
  const s = getPhone();
  if (s.phase !== 'idle') return setPhone({ error: CALL_ALREADY_ACTIVE });
  const problem = dialNumberProblem(number);
  if (problem) return setPhone({ error: problem });
  setPhone({ busy: true, error: null, warning: null });
  try {
    const r = await dialerApi.start(number, contactNumber);
    if (!engine) {
      setPhone({ busy: false, error: NO_DEVICE_READY, call: null });
      return;
    }
    setPhone({ busy: false, phase: 'connecting', call: r.call, maxSeconds: r.max_seconds, callTab: 'call' });
    current = engine.connect(r.params.To, r.params.cid, events());
  } catch (err) {
    // A 403 here is the dialer's own refusal (enablement, spec §4; the quota, §5): its words, not 'Access denied!'.
    const refusal = err instanceof ApiError && err.status === 403 ? err.body?.errors.dialer?.[0] : undefined;
    setPhone({ busy: false, error: refusal ?? errorMessage(err, 'Unable to initialize outbound call') });
  }
}

export function hangup() {
  current?.hangup();
  ringing?.reject();
  current = null;
  ringing = null;
  endCall();
}

export function toggleMute() {
  const on = !getPhone().muted;
  current?.mute(on);
  setPhone({ muted: on });
}

export function sendDigit(d: string) {
  if (!DTMF_DIGITS.test(d)) return setPhone({ error: ILLEGAL_DIGITS });
  if (!current) return setPhone({ error: NO_CALL_READY });
  current.sendDigits(d);
  setPhone((s) => ({ dtmf: s.dtmf + d }));
}

async function onServer(work: () => Promise<{ call: import('@harbor/shared').CallItem }>) {
  setPhone({ busy: true, error: null });
  try {
    const { call } = await work();
    setPhone({ busy: false, call });
  } catch (err) {
    setPhone({ busy: false, error: errorMessage(err) });
  }
}

export function toggleRecording() {
  const call = getPhone().call;
  if (call) void onServer(() => dialerApi.recording(call.id, call.recording !== 'recording'));
}

export function playDisclaimer() {
  const call = getPhone().call;
  if (call) void onServer(() => dialerApi.disclaimer(call.id));
}

export function accept() {
  const s = getPhone();
  if (s.phase !== 'incoming') return;
  ringing?.accept();
  current = ringing;
  ringing = null;
  setPhone({ phase: 'active', answeredAt: Date.now(), callTab: 'call' });
  const pop = s.incoming;
  if (!pop) return;
  // Spec §2/§6: one match opens its page; several open the contacts list in a new tab.
  setTimeout(() => {
    if (pop.contact_numbers.length === 1) navigate(`/contacts/${pop.contact_numbers[0]}`);
    else if (pop.contact_numbers.length > 1)
      window.open(`/contacts?q=${encodeURIComponent(pop.phone_number)}`, '_blank');
  }, SCREEN_POP_MS);
}

export function reject() {
  ringing?.reject();
  ringing = null;
  endCall();
}

/** A message of the call channel (exported for tests: the channel itself is the live connection's). */
export function onCallsMessage(raw: unknown) {
  const parsed = CallsChannelMessage.safeParse(raw);
  if (!parsed.success) return;
  const m = parsed.data;
  if (m.type === 'incoming_call') {
    const now = getPhone();
    // The SIP INVITE may ring the browser before the server's event arrives: then only the screen pop is added.
    if (now.phase === 'incoming' && !now.incoming) return setPhone({ incoming: m, number: m.phone_number });
    if (now.phase !== 'idle') return;
    setPhone({ open: true, phase: 'incoming', incoming: m, number: m.phone_number, error: null, warning: null });
    return;
  }
  const s = getPhone();
  if (s.call?.id !== m.call.id && !(s.incoming && s.incoming.call_id === m.call.id)) return;
  if (TERMINAL.has(m.call.status)) {
    current?.hangup();
    current = null;
    // With Twilio, busy, no answer and declined happen to the carrier leg: the server's code is the only word of it.
    endCall({ warning: m.warning, error: describe(m.call.error_code) });
  } else {
    // With Twilio the browser's leg is answered as it joins the call's conference, before the far end does (the
    // engine reports that as ringing): the server's in-progress, the carrier leg answered, starts the counter.
    const answered = m.call.status === 'in-progress' && (s.phase === 'connecting' || s.phase === 'ringing');
    setPhone({
      call: m.call,
      ...(answered ? { phase: 'active' as const, answeredAt: Date.now() } : {}),
      ...(m.warning ? { warning: m.warning } : {}),
    });
  }
}

/** Starts the phone for the signed-in person; answers the stop. */
export function startPhone(nav: (to: string) => void): () => void {
  navigate = nav;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = subscribe(CALLS_CHANNEL, {}, onCallsMessage);
  // The same route as the first token; the panel shows what the newest one says (enabled, reasons).
  const refresh = async () => {
    const token = await dialerApi.token();
    if (!stopped) setPhone({ token });
    return token;
  };
  const init = async () => {
    try {
      const token = await dialerApi.token();
      if (stopped) return;
      setPhone({ token });
      engine?.destroy();
      engine = null;
      const next = token.enabled && !token.hidden ? await engineFor(token, refresh) : null;
      // The panel may have closed while the engine's chunk loaded.
      if (stopped) return next?.destroy();
      engine = next;
      engine?.onStatus((device) => setPhone({ device }));
      engine?.onIncoming((call) => {
        ringing = call;
        call.on(events());
        setPhone((s) => (s.phase === 'idle' ? { open: true, phase: 'incoming', number: call.from } : {}));
      });
      if (token.expires_at && !engine?.renewsToken) {
        const wait = new Date(token.expires_at).getTime() - Date.now() - TOKEN_EARLY_MS;
        timer = setTimeout(() => void init(), Math.max(wait, 30_000));
      }
    } catch (err) {
      // Spec §4: a device error is only logged.
      console.info('Softphone: no token', errorMessage(err));
    }
  };
  void init();
  registerDialer(dial);
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
    registerDialer(null);
    engine?.destroy();
    engine = null;
  };
}
