// The relay's book of calls (relay.mjs): what each call's SIP events have made of it, as Twilio-like statuses, what
// is still to be delivered to Harbor, and where its recording stands. It lives in a small JSON file in the lab's
// directory, written on every change and read at start, so a relay restarted mid-call carries on with that call's
// later events (and delivers what it had not yet delivered) instead of losing them. A finished call (its last
// status and its recording delivered) leaves the file at once and the memory a minute later: until then a
// retransmitted INVITE or BYE is recognised and ignored.
import fs from 'node:fs';

export const TERMINAL = new Set(['completed', 'busy', 'no-answer', 'canceled', 'failed']);
export const STATUS_PATH = '/v1/webhooks/voice-lab/status';
export const RECORDING_PATH = '/v1/webhooks/voice-lab/recording';
/** How long a finished call is remembered, to recognise its retransmissions. */
export const FORGET_AFTER_MS = 60_000;

/** A final SIP failure as the status Twilio would give it. */
export function failureStatus(code) {
  if (code === 486 || code === 600) return 'busy';
  if (code === 480 || code === 408) return 'no-answer';
  if (code === 487) return 'canceled';
  return 'failed';
}

/**
 * @typedef {{ path: string, payload: Record<string, unknown> }} Delivery
 * @typedef {{
 *   dir: 'inbound' | 'outbound', status: string, answeredAt: number | null, endedAt: number | null,
 *   outbox: Delivery[], recording: 'none' | 'waiting' | 'posted', finishedAt: number | null,
 * }} CallState
 */

export class CallBook {
  /** @param {string | null} file where the book is kept (null: memory only) */
  constructor(file = null) {
    this.file = file;
    /** @type {Map<string, CallState>} */
    this.calls = new Map();
    if (file && fs.existsSync(file)) {
      try {
        const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
        for (const [ci, state] of Object.entries(saved.calls ?? {})) this.calls.set(ci, { ...state, finishedAt: null });
      } catch {
        // A torn or foreign file: start empty rather than not at all (the server's stale-call sweep ends its calls).
      }
    }
  }

  get(ci) {
    return this.calls.get(ci);
  }

  /** Writes the calls still under way (a temporary file renamed over the last: never half a file). */
  save() {
    if (!this.file) return;
    const open = Object.fromEntries([...this.calls].filter(([, s]) => s.finishedAt === null));
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ calls: open }));
    fs.renameSync(tmp, this.file);
  }

  /** The status a call moves to, queued for delivery; answers the delivery or null when it changes nothing. */
  emit(ci, state, status, now, extra = {}) {
    if (TERMINAL.has(state.status) || state.status === status) return null;
    if (status === 'ringing' && state.status === 'in-progress') return null;
    state.status = status;
    if (TERMINAL.has(status)) {
      state.endedAt = now;
      // Only an answered call has something recorded; its recording is posted once rtpengine has finished it.
      state.recording = status === 'completed' ? 'waiting' : 'none';
    }
    const d = { path: STATUS_PATH, payload: { call_sid: ci, status, direction: state.dir, at: now, ...extra } };
    state.outbox.push(d);
    return d;
  }

  /**
   * One raw event from Kamailio (`{ e, ci, dir?, code?, from?, to?, call? }`). Answers what the relay does next:
   * `inbound` (ask Harbor whom to ring), or the deliveries the event queued (often none).
   * @returns {{ kind: 'inbound', ci: string } | { kind: 'deliver', ci: string, deliveries: Delivery[] }}
   */
  event(ev, now = Date.now()) {
    const ci = String(ev.ci ?? '');
    const none = { kind: 'deliver', ci, deliveries: [] };
    if (!ci) return none;
    this.sweep(now);
    let state = this.calls.get(ci);
    const out = [];
    if (ev.e === 'invite') {
      if (state) return none; // an INVITE retransmitted
      const dir = ev.dir === 'in' ? 'inbound' : 'outbound';
      state = { dir, status: '', answeredAt: null, endedAt: null, outbox: [], recording: 'none', finishedAt: null };
      this.calls.set(ci, state);
      if (dir === 'inbound') {
        // Harbor creates the call and names the agent before Kamailio rings anyone.
        state.status = 'initiated';
        this.save();
        return { kind: 'inbound', ci };
      }
      out.push(
        this.emit(ci, state, 'initiated', now, {
          harbor_call: ev.call ?? '',
          identity: ev.from ?? '',
          to: ev.to ?? '',
        }),
      );
    } else if (!state || state.finishedAt !== null) {
      return none;
    } else if (ev.e === 'reply') {
      const code = Number(ev.code);
      if (code === 180 || code === 183) out.push(this.emit(ci, state, 'ringing', now));
      else if (code >= 200 && code < 300) {
        state.answeredAt ??= now;
        out.push(this.emit(ci, state, 'in-progress', now));
      } else if (code >= 300) out.push(this.emit(ci, state, failureStatus(code), now, { sip_code: code }));
    } else if (ev.e === 'bye') {
      const seconds = state.answeredAt ? Math.max(1, Math.ceil((now - state.answeredAt) / 1000)) : 0;
      out.push(this.emit(ci, state, state.answeredAt ? 'completed' : 'canceled', now, { duration: seconds }));
    } else if (ev.e === 'cancel') {
      out.push(this.emit(ci, state, 'canceled', now, { duration: 0 }));
    }
    const deliveries = out.filter((d) => d !== null);
    if (deliveries.length) this.save();
    return { kind: 'deliver', ci, deliveries };
  }

  /** Harbor refused an inbound call (or named no one): it is no call of ours. */
  drop(ci) {
    this.calls.delete(ci);
    this.save();
  }

  /** The call's recording, converted and served: its callback joins the call's deliveries. */
  recordingReady(ci, recording, now = Date.now()) {
    const state = this.calls.get(ci);
    if (state?.recording !== 'waiting') return null;
    state.recording = 'posted';
    const d = { path: RECORDING_PATH, payload: { call_sid: ci, ...recording, at: now } };
    state.outbox.push(d);
    this.save();
    return d;
  }

  /** Nothing was recorded (or rtpengine never finished it): the call waits for no recording. */
  noRecording(ci, now = Date.now()) {
    const state = this.calls.get(ci);
    if (state?.recording !== 'waiting') return;
    state.recording = 'none';
    this.settle(state, now);
  }

  /** A delivery was accepted by Harbor (or given up on): off the outbox. */
  delivered(ci, delivery, now = Date.now()) {
    const state = this.calls.get(ci);
    if (!state) return;
    state.outbox = state.outbox.filter((d) => d !== delivery);
    this.settle(state, now);
  }

  /** A call whose end, and recording, have all been delivered is finished: out of the file. */
  settle(state, now) {
    if (TERMINAL.has(state.status) && state.outbox.length === 0 && state.recording !== 'waiting') {
      state.finishedAt ??= now;
    }
    this.save();
  }

  /** Forgets finished calls after FORGET_AFTER_MS. */
  sweep(now = Date.now()) {
    for (const [ci, s] of this.calls)
      if (s.finishedAt !== null && now - s.finishedAt > FORGET_AFTER_MS) this.calls.delete(ci);
  }

  /** Calls whose recording is still awaited (after a restart: picked up again). */
  waitingForRecording() {
    return [...this.calls].filter(([, s]) => s.recording === 'waiting').map(([ci]) => ci);
  }
}
