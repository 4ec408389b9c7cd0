/**
 * Live fan-out: publish to a stream, every process with a subscriber to that stream delivers it. In-process by
 * default; with REDIS_URL, Redis pub/sub so several server processes can run side by side.
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

export type Listener = (message: unknown) => void;

export interface Bus {
  publish(stream: string, message: unknown): Promise<void>;
  subscribe(stream: string, listener: Listener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export class MemoryBus implements Bus {
  private emitter = new EventEmitter().setMaxListeners(0);
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
  private counts = new Map<string, number>();

  constructor(url: string) {
    this.pub = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.sub = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.sub.on('message', (channel: string, raw: string) => {
      void this.local.publish(channel, JSON.parse(raw));
    });
    for (const c of [this.pub, this.sub]) c.on('error', (e: Error) => console.error('redis bus error', e.message));
  }

  async publish(stream: string, message: unknown) {
    await this.pub.publish(stream, JSON.stringify(message));
  }

  async subscribe(stream: string, listener: Listener) {
    // One Redis subscription per stream per process, shared by all local listeners.
    const n = this.counts.get(stream) ?? 0;
    if (n === 0) await this.sub.subscribe(stream);
    this.counts.set(stream, n + 1);
    const off = await this.local.subscribe(stream, listener);
    return async () => {
      await off();
      const left = (this.counts.get(stream) ?? 1) - 1;
      this.counts.set(stream, left);
      if (left === 0) {
        this.counts.delete(stream);
        await this.sub.unsubscribe(stream);
      }
    };
  }

  async close() {
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }
}

export const createBus = (redisUrl: string | null): Bus => (redisUrl ? new RedisBus(redisUrl) : new MemoryBus());
