import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Cable, type CableState, cableUrl, channelIdentifier, type SocketLike } from './cable';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, string>[] = [];
  closed = false;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  // server side
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  frame(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
}

const NOTIFICATIONS = channelIdentifier('NotificationsChannel');

describe('Cable', () => {
  let sockets: FakeSocket[];
  let states: CableState[];
  let cable: Cable;

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    states = [];
    cable = new Cable({
      url: () => 'ws://app.test/cable',
      createSocket: (url) => {
        const s = new FakeSocket(url);
        sockets.push(s);
        return s;
      },
      reconnectMs: 1000,
    });
    cable.onStateChange((s) => states.push(s));
  });

  afterEach(() => {
    cable.stop();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  const last = () => sockets[sockets.length - 1];

  it('goes welcome -> connecting -> subscribe -> confirm -> connected', () => {
    const received: unknown[] = [];
    cable.subscribe('NotificationsChannel', {}, (m) => received.push(m));
    cable.start();
    expect(sockets).toHaveLength(1);
    expect(last().url).toBe('ws://app.test/cable');
    expect(cable.getState()).toBe('disconnected');

    last().open();
    expect(last().sent).toEqual([]); // nothing before the welcome
    last().frame({ type: 'welcome' });
    expect(cable.getState()).toBe('connecting');
    expect(last().sent).toEqual([{ command: 'subscribe', identifier: '{"channel":"NotificationsChannel"}' }]);

    last().frame({ type: 'confirm_subscription', identifier: NOTIFICATIONS });
    expect(cable.getState()).toBe('connected');
    expect(states).toEqual(['connecting', 'connected']);

    last().frame({ type: 'ping', message: 1700000000 });
    expect(cable.getState()).toBe('connected');
    expect(received).toEqual([]);

    last().frame({ identifier: NOTIFICATIONS, message: { title: 'Hi', body: 'There' } });
    last().frame({ identifier: channelIdentifier('Other'), message: { nope: true } });
    expect(received).toEqual([{ title: 'Hi', body: 'There' }]);
  });

  it('stays connecting when the subscription is rejected', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    cable.subscribe('NotificationsChannel', {}, () => {});
    cable.start();
    last().open();
    last().frame({ type: 'welcome' });
    last().frame({ type: 'reject_subscription', identifier: NOTIFICATIONS });
    expect(cable.getState()).toBe('connecting');
  });

  it('reconnects 1 s after a close and resubscribes every channel', () => {
    cable.subscribe('NotificationsChannel', {}, () => {});
    cable.subscribe('ImportChannel', { user_id: 7 }, () => {});
    cable.start();
    last().open();
    last().frame({ type: 'welcome' });
    last().frame({ type: 'confirm_subscription', identifier: NOTIFICATIONS });

    last().drop();
    expect(cable.getState()).toBe('disconnected');
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);

    last().open();
    last().frame({ type: 'welcome' });
    expect(last().sent.map((c) => c.identifier)).toEqual([
      '{"channel":"NotificationsChannel"}',
      '{"channel":"ImportChannel","user_id":7}',
    ]);
  });

  it('treats an error like a close and schedules only one reconnect when both fire', () => {
    cable.start();
    const first = last();
    first.open();
    first.frame({ type: 'welcome' });
    first.onerror?.({});
    first.onclose?.({});
    expect(first.closed).toBe(true);
    expect(cable.getState()).toBe('disconnected');
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(2);
  });

  it('subscribes at once when already welcomed, and unsubscribes when the last handler leaves', () => {
    cable.start();
    last().open();
    last().frame({ type: 'welcome' });
    const a = cable.subscribe('NotificationsChannel', {}, () => {});
    const b = cable.subscribe('NotificationsChannel', {}, () => {});
    expect(last().sent).toEqual([{ command: 'subscribe', identifier: NOTIFICATIONS }]);
    a();
    expect(last().sent).toHaveLength(1);
    b();
    expect(last().sent[1]).toEqual({ command: 'unsubscribe', identifier: NOTIFICATIONS });
  });

  it('sends channel actions as Action Cable messages', () => {
    cable.start();
    last().open();
    last().frame({ type: 'welcome' });
    expect(cable.perform('NotificationsChannel', {}, { action: 'validate_stream' })).toBe(true);
    expect(last().sent[0]).toEqual({
      command: 'message',
      identifier: NOTIFICATIONS,
      data: '{"action":"validate_stream"}',
    });
  });

  it('does not reconnect after stop', () => {
    cable.start();
    last().open();
    cable.stop();
    expect(last().closed).toBe(true);
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(1);
  });

  it('ignores unreadable frames', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    cable.start();
    last().open();
    last().onmessage?.({ data: 'not json' });
    expect(cable.getState()).toBe('disconnected');
    warn.mockRestore();
  });
});

describe('cableUrl', () => {
  it('follows the page protocol', () => {
    expect(cableUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173/cable');
    expect(cableUrl({ protocol: 'https:', host: 'crm.example.com' })).toBe('wss://crm.example.com/cable');
  });
});
