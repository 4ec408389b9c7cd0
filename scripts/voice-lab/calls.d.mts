// Types of the relay's book of calls (calls.mjs) for its unit test.
export declare const TERMINAL: Set<string>;
export declare const STATUS_PATH: string;
export declare const RECORDING_PATH: string;
export declare const FORGET_AFTER_MS: number;
export declare function failureStatus(code: number): string;
export interface Delivery {
  path: string;
  payload: Record<string, unknown>;
}
export interface CallState {
  dir: 'inbound' | 'outbound';
  status: string;
  answeredAt: number | null;
  endedAt: number | null;
  outbox: Delivery[];
  recording: 'none' | 'waiting' | 'posted';
  finishedAt: number | null;
}
export interface KamailioEvent {
  e: 'invite' | 'reply' | 'bye' | 'cancel';
  ci: string;
  dir?: 'in' | 'out';
  code?: number | string;
  from?: string;
  to?: string;
  call?: string;
}
export declare class CallBook {
  constructor(file?: string | null);
  file: string | null;
  calls: Map<string, CallState>;
  get(ci: string): CallState | undefined;
  save(): void;
  event(
    ev: KamailioEvent,
    now?: number,
  ): { kind: 'inbound'; ci: string } | { kind: 'deliver'; ci: string; deliveries: Delivery[] };
  drop(ci: string): void;
  recordingReady(ci: string, recording: { recording_sid: string; duration: number }, now?: number): Delivery | null;
  noRecording(ci: string, now?: number): void;
  delivered(ci: string, delivery: Delivery, now?: number): void;
  sweep(now?: number): void;
  waitingForRecording(): string[];
}
