/**
 * With REDIS_URL: BullMQ carries "job N is ready" between processes, so a job enqueued by one server process is
 * picked up at once by whichever process has a free slot. The jobs table stays the source of truth (status,
 * checkpoint, attempts); a BullMQ job only names the row, and the poller still catches anything a message missed.
 *
 * That is also what makes a Redis outage harmless here: while Redis is unreachable the wake-up is dropped (adding
 * fails at once rather than queueing in memory), the poller runs the job from the table, and the worker reconnects
 * on its own when Redis is back. Both BullMQ objects have error listeners: an 'error' without one ends the process.
 */
import { Queue, Worker } from 'bullmq';
import { logRedisError, type RedisClients, reconnectDelay } from '../redis.js';
import type { JobQueue } from './queue.js';

export async function attachBullmq(queue: JobQueue, redis: RedisClients, name: string) {
  // Our own client (commands fail at once while disconnected), so a wake-up is skipped rather than held in memory
  // until Redis returns; BullMQ leaves a client it was handed open, RedisClients closes it.
  const connection = redis.create('jobs queue');
  const bull = new Queue(name, { connection });
  bull.on('error', (err) => logRedisError('jobs queue', err));
  queue.onEnqueued = async (id) => {
    if (connection.status !== 'ready') return;
    try {
      await bull.add('run', { id }, { removeOnComplete: true, removeOnFail: 1000 });
    } catch {
      // Redis unreachable: the row is committed and the poller claims it within a second.
    }
  };
  const worker = new Worker(
    name,
    async (msg) => {
      // A stopped queue leaves the row queued; the poller takes it when the queue starts again.
      if (queue.isStopped) return;
      const job = await queue.claim(Number(msg.data.id));
      if (job) await queue.run(job);
    },
    // Workers block on Redis and must queue their commands across reconnects (BullMQ requires this setting).
    { connection: { url: redis.url, retryStrategy: reconnectDelay, maxRetriesPerRequest: null }, concurrency: 2 },
  );
  worker.on('error', (err) => logRedisError('jobs worker', err));
  return async () => {
    // Forced: the queue has stopped its jobs already, and a graceful close can wait forever on a reconnecting Redis.
    await Promise.allSettled([worker.close(true), bull.close()]);
  };
}
