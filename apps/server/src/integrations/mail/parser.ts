/**
 * The stand-in's MIME parse in a worker thread (parse-worker.mjs), started on the first message and stopped with the
 * inbox; in-process when a worker cannot start. Parsing is the stand-in's work, not Harbor's: in production the
 * provider does it on its own machines.
 */
import { Worker } from 'node:worker_threads';
import { type ParsedMail, parseMail } from './parse-mail.mjs';

type Reply = { id: number; parsed?: ParsedMail; error?: string };

export class MailParser {
  private worker: Worker | null = null;
  private failed = false;
  private next = 1;
  private pending = new Map<number, { resolve: (p: ParsedMail) => void; reject: (e: Error) => void }>();

  parse(raw: Buffer): Promise<ParsedMail> {
    const worker = this.ensureWorker();
    if (!worker) return parseMail(raw);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, raw });
    });
  }

  private ensureWorker() {
    if (this.worker || this.failed) return this.worker;
    try {
      const worker = new Worker(new URL('./parse-worker.mjs', import.meta.url));
      // Never what keeps a process alive: the inbox closes it, and an idle one must not hold a test run open.
      worker.unref();
      worker.on('message', (m: Reply) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.parsed) p.resolve(m.parsed);
        else p.reject(new Error(m.error ?? 'could not parse the message'));
      });
      worker.on('error', (err) => this.lost(worker, err));
      worker.on('exit', () => this.lost(worker, new Error('the parse worker stopped')));
      this.worker = worker;
    } catch {
      this.failed = true;
    }
    return this.worker;
  }

  /** The worker died: what it held fails (the SMTP client retries those messages), the next starts a new one. */
  private lost(worker: Worker, err: Error) {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  async close() {
    const worker = this.worker;
    this.worker = null;
    this.failed = true;
    for (const p of this.pending.values()) p.reject(new Error('the inbox closed'));
    this.pending.clear();
    await worker?.terminate();
  }
}
