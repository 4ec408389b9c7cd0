/** What leaves the server about attempts and settings: never a raw row (file paths and checkpoints stay inside). */
import {
  CONTACT_FIELD_LABELS,
  type FieldChange,
  formatPhone,
  type ImportAttempt,
  type KeptField,
  type MatchedContact,
} from '@harbor/shared';
import type { importAttempts, importSettings } from './schema.js';

type AttemptRow = typeof importAttempts.$inferSelect;

export function presentAttempt(a: AttemptRow, user: { id: number; name: string } | null = null): ImportAttempt {
  return {
    // The company's own number: what URLs and the routes' {id} use (docs/decisions/per-company-numbers.md).
    id: a.number,
    status: a.status as ImportAttempt['status'],
    kind: a.kind as ImportAttempt['kind'],
    contact_type: a.contactType as ImportAttempt['contact_type'],
    file_name: a.fileName,
    file_size: a.fileSize,
    user,
    owner_id: a.ownerId,
    total: a.total,
    processed: a.processed,
    created: a.created,
    updated: a.updated,
    unchanged: a.unchanged,
    skipped: a.skipped,
    failed: a.failed,
    error: a.error,
    result: a.result,
    created_at: new Date(a.createdAt).toISOString(),
    finished_at: a.finishedAt ? new Date(a.finishedAt).toISOString() : null,
  };
}

export function presentSetting(s: typeof importSettings.$inferSelect) {
  return { id: s.id, name: s.name, data: s.data, created_at: new Date(s.createdAt).toISOString() };
}

const PHONES = new Set(['phone', 'secondary_phone']);

/** A stored value as people read it: text, dates as YYYY-MM-DD, phones 1-xxx-xxx-xxxx, blank as null. */
export function shown(field: string, v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'string') return PHONES.has(field) ? formatPhone(v) : v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

type Changes = Record<string, { from: unknown; to: unknown }> | null | undefined;

const ORDER = Object.keys(CONTACT_FIELD_LABELS);
/** Fields in the order a contact shows them (jsonb keeps its keys in its own order). */
const inFieldOrder = <T>(entries: Array<[string, T]>) =>
  entries.sort(([a], [b]) => (ORDER.indexOf(a) >>> 0) - (ORDER.indexOf(b) >>> 0) || a.localeCompare(b));

/** `{field: {from, to}}` as a list; the extra fields' object is opened up into one entry per key that changed. */
export function fieldChanges(changes: Changes): FieldChange[] {
  const out: FieldChange[] = [];
  for (const [field, { from, to }] of inFieldOrder(Object.entries(changes ?? {}))) {
    if (field === 'extra') {
      const a = (from ?? {}) as Record<string, unknown>;
      const b = (to ?? {}) as Record<string, unknown>;
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) {
          out.push({ field: `extra.${k}`, from: shown(k, a[k]), to: shown(k, b[k]) });
        }
      }
      continue;
    }
    out.push({ field, from: shown(field, from), to: shown(field, to) });
  }
  return out;
}

export function keptFields(
  kept: Record<string, { value: unknown; file: unknown; reason: string }> | null | undefined,
): KeptField[] {
  return inFieldOrder(Object.entries(kept ?? {})).map(([field, k]) => ({
    field,
    value: shown(field, k.value),
    file_value: shown(field, k.file) ?? '',
    reason: k.reason === 'identity' ? 'identity' : 'not_blank',
  }));
}

export interface ContactRef {
  contact_id: number | string | null;
  number: number | string | null;
  first_name: string | null;
  last_name: string | null;
  owner_id: number | null;
  owner_name: string | null;
  /** Whether the person asking may see the contact: otherwise it is never described. */
  visible: boolean | null;
}

export function presentMatchedContact(r: ContactRef, importOwnerId: number | null): MatchedContact | null {
  if (r.contact_id === null || r.number === null || !r.visible) return null;
  return {
    id: Number(r.contact_id),
    number: Number(r.number),
    name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || `#${r.number}`,
    owner: r.owner_id ? { id: r.owner_id, name: r.owner_name ?? '' } : null,
    owned_by_importer: r.owner_id === importOwnerId,
  };
}
