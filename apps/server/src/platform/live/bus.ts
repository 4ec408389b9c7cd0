/**
 * Live fan-out: publish to a stream, every process with a subscriber to that stream delivers it. In-process by
 * default; with REDIS_URL, Redis pub/sub so several server processes can run side by side.
 *
 * A Redis outage never reaches the callers: publishing while disconnected drops the frame (live frames are a
 * courtesy; the data is in the database and channels replay what matters on subscribe), subscribing records the
 * stream and takes effect when Redis is back. `connected` says whether this process currently hears every message
 * published anywhere; the session cache trusts itself only while it does.
 */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { commandOptions, type RedisClients } from '../redis.js';

export type Listener = (message: unknown) => void;

export interface Bus {
  /** Never rejects: a frame that cannot be sent is dropped. */
  publish(stream: string, message: unknown): Promise<void>;
  subscribe(stream: string, listener: Listener): Promise<() => Promise<void>>;
  /** True while this process receives every message published by any process. */
  readonly connected: boolean;
  /** Called with the new value whenever `connected` changes. */
  onConnectionChange(listener: (connected: boolean) => void): void;
  close(): Promise<void>;
}

export class MemoryBus implements Bus {
  private emitter = new EventEmitter().setMaxListeners(0);
  readonly connected = true;
  onConnectionChange() {}
  async publish(stream: string, message: unknown) {
    this.emitter.emit(stream, message);
  }
  async subscribe(stream: string, listener: Listener) {
    this.emitter.on(stream, listener);
    return async () => {
      this.emitter.off(stream, listener);
    };
  }
  async close() {
    this.emitter.removeAllListeners();
  }
}

export class RedisBus implements Bus {
  private pub: Redis;
  private sub: Redis;
  private local = new MemoryBus();
  /** Local listeners per stream; a stream is subscribed in Redis while it has any. */
  private counts = new Map<string, number>();
  private heard = false;
  private watchers: Array<(connected: boolean) => void> = [];

  /**
   * `namespace` prefixes every Redis channel: deployments (and the test apps of a parallel test run) sharing one
   * Redis would otherwise hear each other's streams, which carry user ids that mean other people there.
   */
  constructor(
    clients: RedisClients,
    private namespace: string,
  ) {
    this.pub = clients.create('bus publish');
    // Subscriptions are ours to restore: after a reconnect every stream a listener still wants is subscribed again,
    // and only then does the process count as hearing everything.
    this.sub = clients.create('bus subscribe', commandOptions({ autoResubscribe: false, commandTimeout: undefined }));
    this.sub.on('message', (channel: string, raw: string) => {
      if (!channel.startsWith(this.prefix)) return;
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        return;
      }
      void this.local.publish(channel.slice(this.prefix.length), message);
    });
    this.sub.on('ready', () => void this.resubscribe());
    for (const event of ['close', 'end', 'reconnecting']) this.sub.on(event, () => this.setHeard(false));
  }

  private get prefix() {
    return `${this.namespace}:`;
  }

  get connected() {
    return this.heard;
  }

  onConnectionChange(listener: (connected: boolean) => void) {
    this.watchers.push(listener);
  }

  private setHeard(value: boolean) {
    if (this.heard === value) return;
    this.heard = value;
    for (const w of this.watchers) w(value);
  }

  private async resubscribe() {
    const streams = [...this.counts.keys()];
    try {
      if (streams.length) await this.sub.subscribe(...streams.map((s) => this.prefix + s));
      if (this.sub.status === 'ready') this.setHeard(true);
    } catch {
      // The connection dropped again; the next 'ready' retries.
    }
  }

  async publish(stream: string, message: unknown) {
    try {
      await this.pub.publish(this.prefix + stream, JSON.stringify(message));
    } catch {
      // Disconnected or timed out: the frame is dropped (the client error itself is logged by RedisClients).
    }
  }

  async subscribe(stream: string, listener: Listener) {
    // One Redis subscription per stream per process, shared by all local listeners.
    const n = this.counts.get(stream) ?? 0;
    this.counts.set(stream, n + 1);
    if (n === 0 && this.sub.status === 'ready') {
      await this.sub.subscribe(this.prefix + stream).catch(() => {
        // Lost the connection meanwhile: 'ready' will subscribe it with the others.
      });
    }
    const off = await this.local.subscribe(stream, listener);
    return async () => {
      await off();
      const left = (this.counts.get(stream) ?? 1) - 1;
      if (left > 0) {
        this.counts.set(stream, left);
        return;
      }
      this.counts.delete(stream);
      if (this.sub.status === 'ready') await this.sub.unsubscribe(this.prefix + stream).catch(() => {});
    };
  }

  async close() {
    this.setHeard(false);
    this.watchers = [];
    await this.local.close();
  }
}

export const createBus = (redis: RedisClients | null, namespace: string): Bus =>
  redis ? new RedisBus(redis, namespace) : new MemoryBus();
