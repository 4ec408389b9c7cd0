/**
 * The channels a broadcast can go out on. The machinery (snapshot, consent at send time, batches, retries, progress,
 * cancel) knows none of them by name: the email area registers `email`, the SMS area `sms`.
 */
import type { BroadcastChannel as ChannelName } from '@harbor/shared';
import type { Deps } from '../../platform/deps.js';
import type { ThrottleRule } from '../../platform/jobs/throttle.js';
import type { BroadcastRow } from './schema.js';

/** The fields of a campaign trigger a channel reads to build what it sends. */
export interface TriggerContentSource {
  id: number;
  name: string;
  body: string | null;
  emailIds: number[];
  smsTriggerIds: number[];
  fileKey: string | null;
}

export interface OutgoingRecipient {
  contactId: number;
  senderId: number;
  /** The address consent was checked for (lower-cased email, or the 11-digit phone). */
  address: string;
  /** What the consent answer rested on, recorded with the message. */
  basis: string;
  /** How many times this recipient was handed to the channel before (0 the first time). */
  attempts: number;
}

/**
 * `sent`: the provider took it. `retry`: a temporary failure (tried again later, counted). `wait`: not known yet
 * whether the provider took it (a process died mid-send): asked again shortly, not counted as an attempt.
 * `failed`: never will be sent.
 */
export type SendOutcome = {
  contactId: number;
  outcome: 'sent' | 'retry' | 'wait' | 'failed';
  error?: string;
  /** `wait` until this real time (e.g. the end of the recipient's quiet hours); default a few seconds. */
  until?: Date;
};

export interface BroadcastChannelDef {
  channel: ChannelName;
  /**
   * What a campaign trigger's automatic run sends on this channel (email: the trigger's first active template), as
   * the broadcast's content and title; null when the trigger has nothing to send.
   */
  contentFor?(
    companyId: number,
    trigger: TriggerContentSource,
  ): Promise<{ content: Record<string, unknown>; title: string } | null>;
  /** The provider's shared budget: every job of every process takes from it (platform/jobs/throttle.ts). */
  throttle(): { key: string; rule: ThrottleRule };
  /**
   * Batches worked side by side, each on its own share of the recipients (contact id modulo lanes); 1 when absent.
   * A second lane sends while the first records its batch and reads the next (broadcasts/job.ts).
   */
  lanes?: number;
  /**
   * Sends one message per recipient. Must be idempotent per (broadcast, contact): after a crash the same recipients
   * come again, and a message the provider already took must not go twice. Call `take(n)` before sending n.
   */
  send(o: {
    broadcast: BroadcastRow;
    recipients: OutgoingRecipient[];
    take(n: number): Promise<void>;
    signal: AbortSignal;
  }): Promise<SendOutcome[]>;
}

const registries = new WeakMap<object, Map<ChannelName, BroadcastChannelDef>>();

/** The channels of this process's wiring (one registry per `deps`, so tests with several apps stay apart). */
export function broadcastChannels(deps: Deps) {
  const map = registries.get(deps.jobs) ?? new Map<ChannelName, BroadcastChannelDef>();
  registries.set(deps.jobs, map);
  return {
    /** `replace`: tests stand a recording channel in for the real one. */
    register(def: BroadcastChannelDef, opts: { replace?: boolean } = {}) {
      if (map.has(def.channel) && !opts.replace) throw new Error(`broadcast channel ${def.channel} registered twice`);
      map.set(def.channel, def);
    },
    get(channel: string) {
      return map.get(channel as ChannelName);
    },
  };
}
