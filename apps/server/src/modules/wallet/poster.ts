/**
 * The ledger's front door for movements that arrive one by one at a high rate (usage debits from texts and calls):
 * group commit. A wallet's movements go to one lane (account id modulo the lane count); a lane posts everything
 * that queued while its previous batch was committing, as one batch (ledger.ts): first as two statements without a
 * lock (a read, then one write that moves each wallet only from the balance read), and when that finds a wallet
 * moved by another process, or the batch crosses an auto-refill threshold, as one locking transaction. A single
 * wallet is thereby limited by batches per second, not by one commit (and one fsync) per debit, while every debit
 * still gets its own answer, in arrival order. Lanes never share a wallet, so they never race each other in one
 * process; across processes the compare-and-set and the wallet row lock order them (docs/decisions/wallet-ledger.md).
 */
import type { Database, Db } from '../../platform/db/client.js';
import { AccountDirectory } from './accounts.js';
import {
  type ApplyHooks,
  applyMovements,
  applyMovementsUnlocked,
  assertMovement,
  KeyRace,
  type Movement,
  type MovementResult,
} from './ledger.js';

interface Pending {
  movement: Movement;
  resolve(r: MovementResult): void;
  reject(err: unknown): void;
}

export interface LedgerOptions {
  /**
   * Batches committing at once in this process. Default 2 on the PostgreSQL server: one lane's batch executes while
   * the other's waits for its commit to reach the disk (bench/wallet.ts, 1,000 wallets: 7,400 vs 6,200 debits/s on
   * two cores; 4 lanes were slower). 1 on PGlite, whose single connection runs one transaction at a time anyway.
   */
  lanes?: number;
  /** Movements in one batch at most (default 256). */
  maxBatch?: number;
  hooks?: ApplyHooks;
}

/** Deadlock, serialization failure, or a key posted by another transaction meanwhile: the batch can run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 5;

export class Ledger {
  readonly accounts: AccountDirectory;
  private readonly lanes: Array<{ queue: Pending[]; running: Promise<void> | null }>;
  private readonly maxBatch: number;
  private hooks: ApplyHooks;
  private closed = false;
  /**
   * Batches committed and movements in them, for the bench (the average batch size shows the group commit); the
   * batches that took the locking transaction; retries.
   */
  readonly stats = { batches: 0, movements: 0, retries: 0, locked: 0 };

  constructor(
    private readonly database: Database,
    opts: LedgerOptions = {},
  ) {
    this.accounts = new AccountDirectory(database.db);
    const lanes = opts.lanes ?? (database.kind === 'postgres' ? 2 : 1);
    this.lanes = Array.from({ length: lanes }, () => ({ queue: [], running: null }));
    this.maxBatch = opts.maxBatch ?? 256;
    this.hooks = opts.hooks ?? {};
  }

  /** Hooks set once the area that owns them is wired (the auto-refill job). */
  setHooks(hooks: ApplyHooks) {
    this.hooks = hooks;
  }

  /** Posts one movement through its wallet's lane (its own transaction, shared with whatever queued beside it). */
  post(movement: Movement): Promise<MovementResult> {
    if (this.closed) return Promise.reject(new Error('the ledger is closed'));
    try {
      assertMovement(movement);
    } catch (err) {
      return Promise.reject(err);
    }
    // The paying account (a debit's wallet) picks the lane: the other legs are often a company's revenue account,
    // whose id may be lower than every agent's wallet, and keying on it would put all of a company's debits in
    // one lane.
    const home = movement.legs.find((l) => l.amount < 0)!.accountId;
    const lane = this.lanes[home % this.lanes.length];
    return new Promise((resolve, reject) => {
      lane.queue.push({ movement, resolve, reject });
      if (!lane.running) lane.running = this.drain(lane);
    });
  }

  /** Posts inside the caller's transaction (a webhook's, a route's): commits or rolls back with it. */
  postWithin(tx: Db, movements: Movement[]): Promise<MovementResult[]> {
    return applyMovements(tx, movements, this.hooks);
  }

  /** Waits for every batch in flight; later posts are refused. */
  async close() {
    this.closed = true;
    await Promise.all(this.lanes.map((l) => l.running));
  }

  private async drain(lane: { queue: Pending[]; running: Promise<void> | null }) {
    try {
      while (lane.queue.length) {
        // Let the callers answered by the previous batch post their next movement first: without this turn of the
        // event loop the next batch would start with the first of them alone, and batches would alternate 1 and N-1.
        await new Promise((r) => setImmediate(r));
        const batch = lane.queue.splice(0, this.maxBatch);
        try {
          const results = await this.commit(batch.map((p) => p.movement));
          for (const [i, p] of batch.entries()) p.resolve(results[i]);
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      lane.running = null;
    }
  }

  private async commit(movements: Movement[]): Promise<MovementResult[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        // First without a transaction or a lock (two round trips instead of four). A wallet moved or a key taken
        // by another process meanwhile, or an auto-refill threshold crossed, and the batch takes the locking
        // transaction, which always makes progress.
        const unlocked = attempt === 1 ? await applyMovementsUnlocked(this.database.db, movements, this.hooks) : null;
        const results =
          unlocked ?? (await this.database.db.transaction((tx) => applyMovements(tx, movements, this.hooks)));
        if (!unlocked) this.stats.locked++;
        this.stats.batches++;
        this.stats.movements += movements.length;
        return results;
      } catch (err) {
        const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
        const again = err instanceof KeyRace || (code !== undefined && RETRYABLE.has(code));
        if (!again || attempt >= MAX_ATTEMPTS) throw err;
        this.stats.retries++;
      }
    }
  }
}
