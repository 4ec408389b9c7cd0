/**
 * The lab engine renews its token in place: before the token expires it asks for the next one, sets the new autheph
 * username and password on the running UA and registers again, so a call in progress outlives the token (a new UA,
 * as before, ended it). JsSIP is replaced by a recording fake: the real UA needs a SIP server.
 */
import type { DeviceToken } from '@harbor/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_EARLY_MS } from './engine';

const uas: FakeUA[] = [];
class FakeUA {
  config: Record<string, unknown>;
  calls: string[] = [];
  sessions: { ended: boolean }[] = [];
  constructor(config: Record<string, unknown>) {
    this.config = { ...config };
    uas.push(this);
  }
  start() {
    this.calls.push('start');
  }
  stop() {
    this.calls.push('stop');
    for (const s of this.sessions) s.ended = true;
  }
  set(name: string, value: unknown) {
    this.calls.push(`set ${name}`);
    this.config[name] = value;
    return true;
  }
  register() {
    this.calls.push(`register as ${this.config.authorization_user}`);
  }
  on() {}
  call() {
    const s = { ended: false, on() {}, connection: null, isEnded: () => s.ended };
    this.sessions.push(s);
    return s;
  }
}
vi.mock('jssip', () => ({ default: { UA: FakeUA, WebSocketInterface: class {} } }));

const HOUR = 3_600_000;
const token = (n: number, expiresIn = HOUR): DeviceToken => ({
  token: `secret-${n}`,
  provider: 'sip',
  identity: 'harbor-u5',
  expires_at: new Date(Date.now() + expiresIn).toISOString(),
  sip: { ws_url: 'ws://127.0.0.1:5161', uri: 'sip:harbor-u5@127.0.0.1', username: `${n}:harbor-u5` },
  message: null,
  enabled: true,
  hidden: false,
  reasons: [],
});
const events = { ringing() {}, answered() {}, ended() {} };

beforeEach(() => {
  vi.useFakeTimers();
  uas.length = 0;
});
afterEach(() => vi.useRealTimers());

describe('the lab engine at token expiry', () => {
  it('registers again with the next token on the same UA, and the call in progress goes on', async () => {
    const { SipEngine } = await import('./sip-engine');
    let n = 1;
    const refresh = vi.fn(async () => token(++n));
    const engine = new SipEngine({ ...token(1), sip: token(1).sip!, token: 'secret-1' }, refresh);
    expect(engine.renewsToken).toBe(true);
    engine.connect('18135550100', '42', events);
    const [ua] = uas;
    await vi.advanceTimersByTimeAsync(HOUR - TOKEN_EARLY_MS - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(ua.config).toMatchObject({ authorization_user: '2:harbor-u5', password: 'secret-2' });
    expect(ua.calls).toEqual(['start', 'set authorization_user', 'set password', 'register as 2:harbor-u5']);
    expect(ua.sessions[0].ended).toBe(false);
    // And again before the second token runs out: one UA all along.
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(ua.config.password).toBe('secret-3');
    expect(uas).toHaveLength(1);
    engine.destroy();
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('keeps its credentials when the next token has none (voice switched off), and tries again when asking fails', async () => {
    const { SipEngine } = await import('./sip-engine');
    const refresh = vi
      .fn<() => Promise<DeviceToken>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ ...token(2), provider: 'none', sip: null, token: null, enabled: false });
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const engine = new SipEngine({ ...token(1, 60_000), sip: token(1).sip!, token: 'secret-1' }, refresh);
    const [ua] = uas;
    await vi.advanceTimersByTimeAsync(60_000 - TOKEN_EARLY_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(ua.calls).toEqual(['start']);
    expect(ua.config.password).toBe('secret-1');
    engine.destroy();
    info.mockRestore();
  });
});
