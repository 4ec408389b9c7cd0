/**
 * With REDIS_URL: BullMQ carries "job N is ready" between processes, so a job enqueued by one server process is
 * picked up at once by whichever process has a free slot. The jobs table stays the source of truth (status,
 * checkpoint, attempts); a BullMQ job only names the row, and the poller still catches anything a message missed.
 */
import { Queue, Worker } from 'bullmq';
import type { JobQueue } from './queue.js';

export async function attachBullmq(queue: JobQueue, redisUrl: string, name: string) {
  const connection = { url: redisUrl, maxRetriesPerRequest: null };
  const bull = new Queue(name, { connection });
  queue.onEnqueued = async (id) => {
    await bull.add('run', { id }, { removeOnComplete: true, removeOnFail: 1000 });
  };
  const worker = new Worker(
    name,
    async (msg) => {
      // A stopped queue leaves the row queued; the poller takes it when the queue starts again.
      if (queue.isStopped) return;
      const job = await queue.claim(Number(msg.data.id));
      if (job) await queue.run(job);
    },
    { connection, concurrency: 2 },
  );
  worker.on('error', (err) => console.error('bullmq worker error', err.message));
  return async () => {
    await worker.close();
    await bull.close();
  };
}
