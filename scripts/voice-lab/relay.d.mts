// Types of the lab's relay (relay.mjs) for its test.
import type { CallBook } from './calls.mjs';

export declare const SIGNATURE_HEADER: string;
export declare function signLab(secret: string, body: string, t?: number): string;
export declare function labSigned(secret: string, header: unknown, body: string, now?: number): boolean;
export interface Relay {
  url: string;
  recordingsUrl: string;
  sent: Record<string, unknown>[];
  book: CallBook;
  settled(): Promise<unknown>;
  close(): Promise<void>;
}
export declare function startRelay(o: {
  port: number;
  host?: string;
  appUrl: string;
  secret: string;
  log?: (line: string) => void;
  stateFile?: string;
  spool?: string;
  recordingWaitMs?: number;
}): Promise<Relay>;
