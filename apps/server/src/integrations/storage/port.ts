/**
 * The file storage port: areas store and fetch blobs by key and never see where they live. Keys are made by the
 * caller from server-side ids only (never from a user's file name), so a key cannot climb out of its store.
 */
import type { Readable } from 'node:stream';

export interface StoragePort {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** A stream of the blob, or null when it is missing. */
  get(key: string): Promise<Readable | null>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections, if the adapter holds any (closeDeps calls it). */
  close?(): void;
}

const KEY = /^[a-z0-9][a-z0-9/_-]{0,200}$/;
/**
 * The keys the first import-attachments code wrote (`<company>/<uuid>-<file name>`, the name made of [A-Za-z0-9_.-]):
 * one folder level, the name inside a single segment, so they cannot climb out either. Such files can be read and
 * deleted; no new one is written.
 */
const LEGACY = /^\d{1,10}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-[\w.-]{1,120}$/;

export function assertKey(key: string, mode: 'write' | 'read' = 'write') {
  if (mode === 'read' && LEGACY.test(key)) return;
  if (!KEY.test(key) || key.includes('//') || key.includes('..')) throw new Error(`invalid storage key ${key}`);
}
