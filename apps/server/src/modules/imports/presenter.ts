/** What leaves the server about attempts and settings: never a raw row (file paths and checkpoints stay inside). */
import type { ImportAttempt } from '@harbor/shared';
import type { importAttempts, importSettings } from './schema.js';

type AttemptRow = typeof importAttempts.$inferSelect;

export function presentAttempt(a: AttemptRow, user: { id: number; name: string } | null = null): ImportAttempt {
  return {
    id: a.id,
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
