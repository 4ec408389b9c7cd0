/**
 * The live connection (spec document 2, §4 "Live connection"): one WebSocket to /cable speaking the Action Cable
 * framing. welcome -> connecting, confirm_subscription -> connected, ping ignored, close or error -> disconnected
 * and a reconnect after LIVE_RECONNECT_MS that resubscribes every channel. Features register their channels with
 * `subscribe`; this module knows none of them.
 */
import { LIVE_RECONNECT_MS } from '@harbor/shared';
import { onClientReset } from '../auth/userCache';

export type CableState = 'disconnected' | 'connecting' | 'connected';
export type ChannelParams = Record<string, string | number | boolean | null>;
export type MessageHandler = (message: unknown) => void;

/** The slice of the WebSocket API the cable uses, so tests can hand in a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(): void;
}
export type SocketFactory = (url: string) => SocketLike;

const OPEN = 1;

interface Frame {
  type?: string;
  identifier?: string;
  message?: unknown;
}

export interface CableOptions {
  url: () => string;
  createSocket?: SocketFactory;
  reconnectMs?: number;
}

export function channelIdentifier(channel: string, params: ChannelParams = {}): string {
  return JSON.stringify({ channel, ...params });
}

export class Cable {
  private socket: SocketLike | null = null;
  private running = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private state: CableState = 'disconnected';
  private readonly handlers = new Map<string, Set<MessageHandler>>();
  private readonly stateListeners = new Set<(state: CableState) => void>();
  private readonly options: Required<CableOptions>;

  constructor(options: CableOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
      reconnectMs: LIVE_RECONNECT_MS,
      ...options,
    };
  }

  getState(): CableState {
    return this.state;
  }

  onStateChange(listener: (state: CableState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Open the connection and keep it open until `stop`. Calling it again while running does nothing. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  stop(): void {
    this.running = false;
    this.clearReconnect();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      this.detach(socket);
      socket.close();
    }
    this.setState('disconnected');
  }

  /** Register a handler for a channel; returns the unsubscribe. The subscription survives reconnects. */
  subscribe(channel: string, params: ChannelParams, onMessage: MessageHandler): () => void {
    const identifier = channelIdentifier(channel, params);
    let set = this.handlers.get(identifier);
    if (!set) {
      set = new Set();
      this.handlers.set(identifier, set);
      this.sendCommand({ command: 'subscribe', identifier });
    }
    set.add(onMessage);
    return () => {
      const current = this.handlers.get(identifier);
      if (!current?.delete(onMessage) || current.size) return;
      this.handlers.delete(identifier);
      this.sendCommand({ command: 'unsubscribe', identifier });
    };
  }

  /** Perform a channel action, e.g. `{ action: 'validate_stream' }`. Dropped while not connected. */
  perform(channel: string, params: ChannelParams, data: Record<string, unknown>): boolean {
    const identifier = channelIdentifier(channel, params);
    return this.sendCommand({ command: 'message', identifier, data: JSON.stringify(data) });
  }

  private connect(): void {
    this.clearReconnect();
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url());
    } catch (error) {
      console.error('Live connection could not be opened', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = () => this.lost(socket);
    // An error is followed by close in browsers, but not every implementation promises it: treat both the same.
    socket.onerror = () => this.lost(socket);
  }

  private lost(socket: SocketLike): void {
    if (socket !== this.socket) return;
    this.detach(socket);
    this.socket = null;
    try {
      socket.close();
    } catch {
      // Already closed.
    }
    this.setState('disconnected');
    this.scheduleReconnect();
  }

  private detach(socket: SocketLike): void {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
  }

  private scheduleReconnect(): void {
    if (!this.running || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.running) this.connect();
    }, this.options.reconnectMs);
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private receive(raw: unknown): void {
    let frame: Frame;
    try {
      frame = JSON.parse(String(raw)) as Frame;
    } catch {
      console.warn('Live connection: unreadable frame ignored');
      return;
    }
    switch (frame.type) {
      case 'welcome':
        this.setState('connecting');
        for (const identifier of this.handlers.keys()) this.sendCommand({ command: 'subscribe', identifier });
        return;
      case 'confirm_subscription':
        this.setState('connected');
        return;
      case 'reject_subscription':
        console.warn(`Live connection: subscription rejected for ${frame.identifier}`);
        return;
      case 'ping':
        return;
      case 'disconnect':
        // The server is about to close; the close handler reconnects.
        return;
    }
    if (frame.identifier && frame.message !== undefined) {
      for (const handler of this.handlers.get(frame.identifier) ?? []) {
        try {
          handler(frame.message);
        } catch (error) {
          console.error('Live connection: a channel handler failed', error);
        }
      }
    }
  }

  private sendCommand(command: Record<string, string>): boolean {
    const socket = this.socket;
    // Before the welcome the server ignores commands; the welcome handler subscribes everything registered.
    if (!socket || socket.readyState !== OPEN || this.state === 'disconnected') return false;
    socket.send(JSON.stringify(command));
    return true;
  }

  private setState(next: CableState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.stateListeners) listener(next);
  }
}

export function cableUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const configured = import.meta.env.VITE_CABLE_URL;
  if (configured) return configured;
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/cable`;
}

/** The app's one connection. */
export const cable = new Cable({ url: () => cableUrl() });
// Signing out (or a 401) closes it; it is only ever running once this module has loaded.
onClientReset(() => cable.stop());

export function subscribe(channel: string, params: ChannelParams, onMessage: MessageHandler): () => void {
  return cable.subscribe(channel, params, onMessage);
}
