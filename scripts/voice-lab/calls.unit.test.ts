/**
 * The relay's book of calls (calls.mjs): Kamailio's raw events become Twilio-like statuses in order, each once; a
 * completed call waits for its recording; the book survives a relay restart mid-call (the later statuses still come,
 * with the duration from the first answer, and what was not delivered is delivered); finished calls leave the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CallBook, type Delivery, FORGET_AFTER_MS, RECORDING_PATH, STATUS_PATH } from './calls.mjs';

const T0 = 1_800_000_000_000;
const dirs: string[] = [];
const stateFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-book-'));
  dirs.push(dir);
  return path.join(dir, 'relay-state.json');
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const statuses = (r: ReturnType<CallBook['event']>) =>
  r.kind === 'deliver' ? r.deliveries.map((d) => d.payload.status) : [r.kind];
const saved = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')).calls;
const deliverAll = (book: CallBook, ci: string, now: number) => {
  for (const d of [...book.get(ci)!.outbox]) book.delivered(ci, d, now);
};

describe('CallBook', () => {
  it("turns an outbound call's events into initiated, ringing, in-progress and completed, each once", () => {
    const book = new CallBook();
    const invite = book.event(
      { e: 'invite', ci: 'a@x', dir: 'out', from: 'harbor-u7', to: '15550001111', call: '42' },
      T0,
    );
    expect(invite.kind === 'deliver' && invite.deliveries[0]).toEqual({
      path: STATUS_PATH,
      payload: {
        call_sid: 'a@x',
        status: 'initiated',
        direction: 'outbound',
        at: T0,
        harbor_call: '42',
        identity: 'harbor-u7',
        to: '15550001111',
      },
    });
    expect(statuses(book.event({ e: 'invite', ci: 'a@x', dir: 'out' }, T0 + 5))).toEqual([]); // retransmitted
    expect(statuses(book.event({ e: 'reply', ci: 'a@x', code: '180' }, T0 + 100))).toEqual(['ringing']);
    expect(statuses(book.event({ e: 'reply', ci: 'a@x', code: 183 }, T0 + 110))).toEqual([]);
    expect(statuses(book.event({ e: 'reply', ci: 'a@x', code: 200 }, T0 + 1000))).toEqual(['in-progress']);
    expect(statuses(book.event({ e: 'reply', ci: 'a@x', code: 180 }, T0 + 1100))).toEqual([]); // late provisional
    const bye = book.event({ e: 'bye', ci: 'a@x' }, T0 + 1000 + 60_500);
    expect(bye.kind === 'deliver' && bye.deliveries[0].payload).toMatchObject({ status: 'completed', duration: 61 });
    expect(statuses(book.event({ e: 'bye', ci: 'a@x' }, T0 + 62_000))).toEqual([]); // retransmitted
    expect(book.get('a@x')).toMatchObject({ recording: 'waiting', endedAt: T0 + 61_500 });
    expect(book.get('a@x')!.outbox.map((d) => d.payload.status)).toEqual([
      'initiated',
      'ringing',
      'in-progress',
      'completed',
    ]);
  });

  it('ends unanswered calls as Twilio would, with nothing to record', () => {
    const book = new CallBook();
    const cases: [object, string][] = [
      [{ e: 'reply', code: 486 }, 'busy'],
      [{ e: 'reply', code: 600 }, 'busy'],
      [{ e: 'reply', code: 480 }, 'no-answer'],
      [{ e: 'reply', code: 408 }, 'no-answer'],
      [{ e: 'reply', code: 487 }, 'canceled'],
      [{ e: 'reply', code: 503 }, 'failed'],
      [{ e: 'cancel' }, 'canceled'],
      [{ e: 'bye' }, 'canceled'],
    ];
    cases.forEach(([ev, want], i) => {
      const ci = `c${i}`;
      book.event({ e: 'invite', ci, dir: 'out' }, T0);
      expect(statuses(book.event({ ...ev, ci } as never, T0 + 10)), want).toEqual([want]);
      expect(book.get(ci)!.recording).toBe('none');
      deliverAll(book, ci, T0 + 20);
      expect(book.get(ci)!.finishedAt).toBe(T0 + 20);
    });
  });

  it('asks Harbor about an inbound INVITE, and forgets a call Harbor refused', () => {
    const book = new CallBook();
    expect(book.event({ e: 'invite', ci: 'in@x', dir: 'in', from: '+1555', to: '1813' }, T0)).toEqual({
      kind: 'inbound',
      ci: 'in@x',
    });
    expect(book.get('in@x')).toMatchObject({ dir: 'inbound', status: 'initiated' });
    book.drop('in@x');
    expect(book.get('in@x')).toBeUndefined();
    expect(statuses(book.event({ e: 'reply', ci: 'in@x', code: 200 }, T0 + 10))).toEqual([]);
  });

  it('keeps a completed call until its recording is delivered, then drops it from the file and, later, memory', () => {
    const file = stateFile();
    const book = new CallBook(file);
    book.event({ e: 'invite', ci: 'r@x', dir: 'out' }, T0);
    book.event({ e: 'reply', ci: 'r@x', code: 200 }, T0 + 500);
    book.event({ e: 'bye', ci: 'r@x' }, T0 + 9000);
    deliverAll(book, 'r@x', T0 + 9100);
    expect(book.get('r@x')!.finishedAt).toBeNull();
    expect(book.waitingForRecording()).toEqual(['r@x']);
    expect(Object.keys(saved(file))).toEqual(['r@x']);
    const d = book.recordingReady('r@x', { recording_sid: `LR${'0'.repeat(32)}`, duration: 9 }, T0 + 9500) as Delivery;
    expect(d).toEqual({
      path: RECORDING_PATH,
      payload: { call_sid: 'r@x', recording_sid: `LR${'0'.repeat(32)}`, duration: 9, at: T0 + 9500 },
    });
    expect(book.recordingReady('r@x', { recording_sid: 'again', duration: 1 })).toBeNull(); // once
    book.delivered('r@x', d, T0 + 9600);
    expect(book.get('r@x')!.finishedAt).toBe(T0 + 9600);
    expect(saved(file)).toEqual({});
    // Still known for a minute: a retransmitted INVITE is not a new call.
    expect(statuses(book.event({ e: 'invite', ci: 'r@x', dir: 'out' }, T0 + 9600 + FORGET_AFTER_MS))).toEqual([]);
    book.sweep(T0 + 9600 + FORGET_AFTER_MS + 1);
    expect(book.get('r@x')).toBeUndefined();
  });

  it('finishes a completed call whose recording holds nothing', () => {
    const book = new CallBook();
    book.event({ e: 'invite', ci: 'n@x', dir: 'out' }, T0);
    book.event({ e: 'reply', ci: 'n@x', code: 200 }, T0 + 500);
    book.event({ e: 'bye', ci: 'n@x' }, T0 + 2000);
    deliverAll(book, 'n@x', T0 + 2100);
    book.noRecording('n@x', T0 + 2200);
    expect(book.get('n@x')).toMatchObject({ recording: 'none', finishedAt: T0 + 2200 });
  });

  it('carries a call on across a restart: later statuses, the first answer, undelivered callbacks, the recording', () => {
    const file = stateFile();
    const before = new CallBook(file);
    before.event({ e: 'invite', ci: 'k@x', dir: 'out', call: '9' }, T0);
    before.event({ e: 'reply', ci: 'k@x', code: 180 }, T0 + 200);
    before.event({ e: 'reply', ci: 'k@x', code: 200 }, T0 + 1000);
    // Only the first status reached Harbor before the relay stopped.
    before.delivered('k@x', before.get('k@x')!.outbox[0], T0 + 1100);
    before.event({ e: 'invite', ci: 'done@x', dir: 'out' }, T0);
    before.event({ e: 'cancel', ci: 'done@x' }, T0 + 10);
    deliverAll(before, 'done@x', T0 + 20);

    const after = new CallBook(file);
    expect(after.get('done@x')).toBeUndefined(); // finished calls are not kept
    const state = after.get('k@x')!;
    expect(state).toMatchObject({ dir: 'outbound', status: 'in-progress', answeredAt: T0 + 1000 });
    expect(state.outbox.map((d) => d.payload.status)).toEqual(['ringing', 'in-progress']);
    expect(statuses(after.event({ e: 'reply', ci: 'k@x', code: 200 }, T0 + 1200))).toEqual([]);
    const bye = after.event({ e: 'bye', ci: 'k@x' }, T0 + 1000 + 30_000);
    expect(bye.kind === 'deliver' && bye.deliveries[0].payload).toMatchObject({ status: 'completed', duration: 30 });

    // Restarted again while the recording was awaited: it is awaited still.
    deliverAll(after, 'k@x', T0 + 31_500);
    expect(new CallBook(file).waitingForRecording()).toEqual(['k@x']);
  });

  it('starts empty from a torn file', () => {
    const file = stateFile();
    fs.writeFileSync(file, '{"calls": {"a@x": {"dir"');
    expect(new CallBook(file).calls.size).toBe(0);
  });
});
