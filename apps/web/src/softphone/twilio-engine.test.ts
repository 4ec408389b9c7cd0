/**
 * The Twilio engine, and the panel on it, against a fake of the Voice SDK (test/fake-twilio-sdk.ts; the real one
 * needs WebRTC and Twilio's servers). Where the SDK says a failed call's `error` and `disconnect` in the same turn,
 * the tests say them in both orders. What only a real Twilio account proves is listed in
 * docs/decisions/voice-provider.md.
 */
import type { CallItem, DeviceToken } from '@harbor/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as sdk from '../test/fake-twilio-sdk';
import { fakeServer, json, routes } from '../test/server';
import { dial, onCallsMessage, startPhone } from './controller';
import { type EngineCallEvents, engineFor, type IncomingCall } from './engine';
import { getPhone, resetPhone } from './store';
import { codeOfTwilioError, TwilioEngine } from './twilio-engine';

vi.mock('@twilio/voice-sdk', async () => {
  const { FakeCall, FakeDevice } = await import('../test/fake-twilio-sdk');
  return { Device: FakeDevice, Call: FakeCall };
});
vi.mock('../live/cable', () => ({ subscribe: () => () => {} }));

type FakeDevice = sdk.FakeDevice;
type FakeCall = sdk.FakeCall;

const token = (over: Partial<DeviceToken> = {}): DeviceToken => ({
  token: 'jwt-1',
  provider: 'twilio',
  identity: 'harbor-u5',
  expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  sip: null,
  message: null,
  enabled: true,
  hidden: false,
  reasons: [],
  ...over,
});

/** Promise callbacks and the engine's end-of-turn checks run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

function recorder() {
  const seen: string[] = [];
  const ended: { code: number | null; message: string | null }[] = [];
  const events: EngineCallEvents = {
    ringing: () => seen.push('ringing'),
    answered: () => seen.push('answered'),
    ended: (cause) => {
      seen.push('ended');
      ended.push(cause);
    },
  };
  return { events, seen, ended };
}

async function start(refresh = vi.fn(async () => token({ token: 'jwt-2' }))) {
  const engine = await engineFor(token(), refresh);
  const device = sdk.FakeDevice.instances.at(-1) as FakeDevice;
  return { engine: engine as TwilioEngine, device, refresh };
}

/** An outbound call, made: its controls, the fake call and what the engine reported. */
async function outbound(engine: TwilioEngine, device: FakeDevice) {
  const r = recorder();
  const control = engine.connect('+18135550100', '42', r.events);
  await settle();
  return { ...r, control, call: device.made.at(-1) as FakeCall };
}

let info: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  sdk.FakeDevice.instances = [];
  // The engine logs device errors (spec §4: only logged); kept out of the test output, and checked where it matters.
  info = vi.spyOn(console, 'info').mockImplementation(() => {});
});
afterEach(() => {
  info.mockRestore();
  vi.useRealTimers();
});

describe('TwilioEngine', () => {
  it('is what engineFor builds for a twilio token: one Device on that token, registered, renewing 10 s early', async () => {
    const { engine, device } = await start();
    expect(engine).toBeInstanceOf(TwilioEngine);
    expect(engine.renewsToken).toBe(true);
    expect(sdk.FakeDevice.instances).toHaveLength(1);
    expect(device.token).toBe('jwt-1');
    expect(device.options).toEqual({ tokenRefreshMs: 10_000 });
    expect(device.log).toEqual(['register']);
    // A twilio reply without a token (the dialer disabled) builds nothing.
    expect(await engineFor(token({ token: null }), async () => token())).toBeNull();
    expect(sdk.FakeDevice.instances).toHaveLength(1);
  });

  it('reports READY and DISCONNECTED from the Device', async () => {
    const { engine, device } = await start();
    const statuses: string[] = [];
    engine.onStatus((s) => statuses.push(s));
    device.registered();
    device.emit('unregistered');
    device.registered();
    // A refused token leaves the device unable to take calls, although it still says registered.
    device.emit('error', { code: 31205, message: 'JWT token expired' });
    // A passing error does not: it stays as registered as it is.
    device.emit('error', { code: 31009, message: 'transport' });
    // An error about one call is that call's.
    device.emit('error', { code: 31486, message: 'busy' }, new sdk.FakeCall());
    expect(statuses).toEqual(['READY', 'DISCONNECTED', 'READY', 'DISCONNECTED', 'READY']);
    expect(info).toHaveBeenCalledWith('Softphone: Twilio device error', 31205, 'JWT token expired');

    // Registered before the controller asked: it hears READY at once.
    const late: string[] = [];
    engine.onStatus((s) => late.push(s));
    expect(late).toEqual(['READY']);

    sdk.FakeDevice.refuseRegister = { code: 20101, message: 'invalid token' };
    const refused = await start();
    const after: string[] = [];
    refused.engine.onStatus((s) => after.push(s));
    await settle();
    expect(after).toEqual(['DISCONNECTED']);
  });

  it('connects with exactly To and cid; ringing and the leg joining the conference both report ringing', async () => {
    const { engine, device } = await start();
    const { call, seen, ended } = await outbound(engine, device);
    expect(device.connects).toEqual([{ params: { To: '+18135550100', cid: '42' } }]);
    call.emit('ringing', false);
    call.emit('accept', call);
    expect(seen).toEqual(['ringing', 'ringing']);
    // The far end hangs up: a normal end, reported once.
    call.emit('disconnect', call);
    call.emit('disconnect', call);
    await settle();
    expect(ended).toEqual([{ code: null, message: null }]);
  });

  it("reports a failed call with the spec's code, whichever order the SDK says error and disconnect", async () => {
    const { engine, device } = await start();
    // The gateway's hangup carries an error: error, then disconnect.
    const busy = await outbound(engine, device);
    busy.call.emit('error', { code: 31486, message: 'Busy Here' });
    busy.call.emit('disconnect', busy.call);
    await settle();
    expect(busy.ended).toEqual([{ code: 31486, message: 'Busy Here' }]);

    // No microphone: the SDK disconnects, then says why (31208 from getUserMedia means 31401).
    const mic = await outbound(engine, device);
    mic.call.emit('disconnect', mic.call);
    mic.call.emit('error', { code: 31208, message: 'Permission denied' });
    await settle();
    expect(mic.ended).toEqual([{ code: 31401, message: 'Permission denied' }]);

    // An error that does not end the call (digits not sent) is not the cause of a later normal hangup.
    const dtmf = await outbound(engine, device);
    dtmf.call.emit('error', { code: 31005, message: 'Could not send DTMF' });
    await settle();
    expect(dtmf.ended).toEqual([]);
    dtmf.call.emit('disconnect', dtmf.call);
    await settle();
    expect(dtmf.ended).toEqual([{ code: null, message: null }]);
  });

  it('maps Twilio error codes onto the spec voice error codes', () => {
    const cases: [number | undefined, number][] = [
      [31486, 31486],
      [31603, 31603],
      [31480, 31480],
      [31404, 31404],
      [53405, 53405],
      [53001, 53001],
      [31401, 31401],
      [31208, 31401],
      [31205, 20104],
      [31204, 20101],
      [20151, 20101],
      [53400, 53405],
      [31001, 31000],
      [undefined, 31000],
    ];
    for (const [twilio, spec] of cases) expect([twilio, codeOfTwilioError({ code: twilio })]).toEqual([twilio, spec]);
    expect(codeOfTwilioError(null)).toBeNull();
  });

  it('ends a call Twilio refuses to place with its code', async () => {
    const { engine, device } = await start();
    device.connectWith = Promise.reject({ code: 31402, message: 'Error occurred while accessing microphone' });
    const r = recorder();
    engine.connect('+18135550100', '42', r.events);
    await settle();
    expect(r.ended).toEqual([{ code: 31402, message: 'Error occurred while accessing microphone' }]);

    device.connectWith = Promise.reject(new Error('no code'));
    const bare = recorder();
    engine.connect('+18135550100', '43', bare.events);
    await settle();
    expect(bare.ended).toEqual([{ code: 31000, message: 'no code' }]);
  });

  it('applies a mute or hangup asked before the call exists, and passes digits and mute through', async () => {
    const { engine, device } = await start();
    let make: (call: FakeCall) => void = () => {};
    device.connectWith = new Promise((resolve) => {
      make = resolve;
    });
    const r = recorder();
    const control = engine.connect('+18135550100', '42', r.events);
    control.mute(true);
    const call = new sdk.FakeCall();
    make(call);
    await settle();
    expect(call.muted).toEqual([true]);
    control.sendDigits('12w#');
    control.mute(false);
    expect(call.digits).toEqual(['12w#']);
    expect(call.muted).toEqual([true, false]);

    device.connectWith = new Promise((resolve) => {
      make = resolve;
    });
    const gone = recorder();
    engine.connect('+18135550100', '43', gone.events).hangup();
    const late = new sdk.FakeCall();
    make(late);
    await settle();
    expect(late.disconnected).toBe(1);
    expect(gone.ended).toEqual([{ code: null, message: null }]);
  });

  it("takes an incoming call from the caller's number; answer, give up and decline each end right", async () => {
    const { engine, device } = await start();
    const rung: IncomingCall[] = [];
    engine.onIncoming((c) => rung.push(c));
    const ring = (sid: string) => {
      const call = new sdk.FakeCall('pending', { From: '+18135550100', CallSid: sid });
      device.emit('incoming', call);
      const r = recorder();
      rung.at(-1)?.on(r.events);
      return { call, incoming: rung.at(-1) as IncomingCall, ...r };
    };

    const answered = ring('CA1');
    expect(answered.incoming.from).toBe('+18135550100');
    answered.incoming.accept();
    expect(answered.call.accepted).toBe(1);
    answered.call.state = 'open';
    answered.call.emit('accept', answered.call);
    answered.incoming.mute(true);
    answered.incoming.sendDigits('5');
    expect([answered.call.muted, answered.call.digits]).toEqual([[true], ['5']]);
    answered.incoming.hangup();
    await settle();
    expect(answered.call.disconnected).toBe(1);
    expect(answered.seen).toEqual(['answered', 'ended']);
    expect(answered.ended).toEqual([{ code: null, message: null }]);

    // The caller gives up before it is answered: the SDK says cancel, and nothing after.
    const cancelled = ring('CA2');
    cancelled.call.emit('cancel');
    expect(cancelled.ended).toEqual([{ code: null, message: null }]);

    // Declined, by the Decline button or by hanging up while it rings.
    const declined = ring('CA3');
    declined.incoming.reject();
    const hungUp = ring('CA4');
    hungUp.incoming.hangup();
    expect([declined.call.rejected, hungUp.call.rejected, hungUp.call.disconnected]).toEqual([1, 1, 0]);
    expect([declined.ended, hungUp.ended]).toEqual([[{ code: null, message: null }], [{ code: null, message: null }]]);
  });

  it("renews the token on the Device's tokenWillExpire through the token route's refresh", async () => {
    const { device, refresh } = await start();
    device.emit('tokenWillExpire', device);
    await settle();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(device.tokens).toEqual(['jwt-2']);

    // A reply with no Twilio token is not applied; a failed one is logged.
    refresh.mockResolvedValueOnce(token({ provider: 'none', token: null }));
    device.emit('tokenWillExpire', device);
    refresh.mockRejectedValueOnce(new Error('offline'));
    device.emit('tokenWillExpire', device);
    await settle();
    expect(device.tokens).toEqual(['jwt-2']);
    expect(info).toHaveBeenCalledWith('Softphone: the device token could not be renewed', expect.any(Error));
  });

  it('destroy hangs up its calls, unregisters, then destroys the Device, and reports nothing after', async () => {
    const { engine, device } = await start();
    const statuses: string[] = [];
    engine.onStatus((s) => statuses.push(s));
    engine.onIncoming(() => {});
    device.registered();
    const active = await outbound(engine, device);
    const ringing = new sdk.FakeCall('pending', { From: '+18135550101' });
    device.emit('incoming', ringing);

    engine.destroy();
    expect(active.call.disconnected).toBe(1);
    expect(ringing.rejected).toBe(1);
    expect(device.log).toEqual(['register', 'unregister']);
    device.finishUnregister();
    await settle();
    expect(device.log).toEqual(['register', 'unregister', 'destroy']);
    expect(statuses).toEqual(['READY']);

    // Not registered: nothing to unregister.
    const idle = await start();
    idle.engine.destroy();
    expect(idle.device.log).toEqual(['register', 'destroy']);

    // Twilio never confirms: the Device is destroyed after two seconds anyway.
    vi.useFakeTimers();
    const stuck = await start();
    stuck.device.registered();
    stuck.engine.destroy();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(stuck.device.log).toEqual(['register', 'unregister']);
    await vi.advanceTimersByTimeAsync(1);
    expect(stuck.device.log).toEqual(['register', 'unregister', 'destroy']);
  });
});

const callItem = (id: number, status: CallItem['status'], errorCode: number | null = null): CallItem => ({
  id,
  call_direction: 'outbound',
  call_from: '+18135550199',
  call_to: '+18135550100',
  caller_city: null,
  caller_state: null,
  status,
  recording: 'off',
  duration_s: null,
  answered_at: null,
  ended_at: null,
  created_at: new Date().toISOString(),
  disclaimer_played_at_s: null,
  disclaimer_in_first_minute: false,
  contact: null,
  agent: { id: 5, name: 'Agent' },
  error_code: errorCode,
  billed_minutes: 0,
});

describe('the panel on the Twilio engine', () => {
  afterEach(() => resetPhone());

  it("counts from the carrier's answer, not the conference's, and shows a busy far end with the spec's code", async () => {
    let nextId = 7;
    const seen = fakeServer(
      routes({
        'GET /v1/dialer/fetch_device_token': () => json(200, token()),
        'GET /v1/health': () => json(200, { status: 'ok' }),
        'POST /v1/dialer/calls': () => {
          const id = nextId++;
          return json(200, {
            call: callItem(id, 'initiated'),
            params: { To: '+18135550100', timeout: 60, callerId: '+18135550199', cid: String(id) },
            max_seconds: 600,
          });
        },
      }),
    );
    const stop = startPhone(() => {});
    await vi.waitFor(() => expect(sdk.FakeDevice.instances).toHaveLength(1));
    const device = sdk.FakeDevice.instances[0] as FakeDevice;
    device.registered();
    expect(getPhone().device).toBe('READY');

    await dial('+18135550100');
    await settle();
    expect(device.connects).toEqual([{ params: { To: '+18135550100', cid: '7' } }]);
    const first = device.made[0] as FakeCall;
    first.emit('ringing', true);
    first.emit('accept', first);
    expect([getPhone().phase, getPhone().answeredAt]).toEqual(['ringing', null]);
    onCallsMessage({ type: 'call_status', call: callItem(7, 'in-progress'), warning: null });
    expect(getPhone().phase).toBe('active');
    expect(getPhone().answeredAt).toEqual(expect.any(Number));
    first.emit('disconnect', first);
    await settle();
    expect([getPhone().phase, getPhone().error]).toEqual(['idle', null]);

    // Busy: the carrier leg's status reaches the server, and the server's word ends the browser's leg.
    await dial('+18135550100');
    await settle();
    const second = device.made[1] as FakeCall;
    second.emit('accept', second);
    onCallsMessage({ type: 'call_status', call: callItem(8, 'busy', 31486), warning: null });
    expect(second.disconnected).toBe(1);
    await settle();
    expect([getPhone().phase, getPhone().error]).toEqual(['idle', 'busy (31486)']);

    expect(seen.filter((r) => r.key === 'POST /v1/dialer/calls')).toHaveLength(2);
    stop();
    expect(device.log).toEqual(['register', 'unregister']);
    device.finishUnregister();
    await settle();
    expect(device.log).toEqual(['register', 'unregister', 'destroy']);
  });
});
