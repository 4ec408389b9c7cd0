import type { AuthContext } from '../auth/context.js';

/**
 * A live channel: given the subscriber and the identifier's params, the stream it may listen to, or null to reject.
 * Areas register theirs (calls, SMS, contacts import); the cable knows none of them by name.
 */
export interface ChannelDef {
  name: string;
  streamFor(auth: AuthContext, params: Record<string, unknown>): string | null;
  /**
   * Messages sent right after the subscription is confirmed, so a client that subscribes late (or reconnects) learns
   * what it missed: a job may finish between the request that started it and the browser's subscribe.
   */
  catchUp?(auth: AuthContext, params: Record<string, unknown>): Promise<unknown[]>;
}

export class ChannelRegistry {
  private channels = new Map<string, ChannelDef>();
  register(def: ChannelDef) {
    if (this.channels.has(def.name)) throw new Error(`channel ${def.name} registered twice`);
    this.channels.set(def.name, def);
  }
  get(name: string) {
    return this.channels.get(name);
  }
  names() {
    return [...this.channels.keys()];
  }
}

/** The stream of one user's notifications; areas publish here to reach a person wherever they are signed in. */
export const userStream = (userId: number) => `user:${userId}:notifications`;
