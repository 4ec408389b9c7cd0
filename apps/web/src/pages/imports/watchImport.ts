/**
 * Live progress of one import: the ContactsImportChannel messages (spec §8: a message carries the attempt id) drive
 * the process notification until the attempt completes or fails. Lives outside any page, so it survives navigation.
 */
import { IMPORTS_CHANNEL, type ImportProgressMessage } from '@harbor/shared';
import { subscribe } from '../../live/cable';
import { openProcessNotification } from '../../stores/processNotification';

const listeners = new Set<(m: ImportProgressMessage) => void>();
let unsubscribe: (() => void) | null = null;

function isProgress(m: unknown): m is ImportProgressMessage {
  const p = m as Partial<ImportProgressMessage> | null;
  return !!p && typeof p.id === 'number' && typeof p.status === 'string';
}

/** One subscription for the whole app; pages add listeners (the Imports list updates or adds attempts by id). */
export function onImportProgress(listener: (m: ImportProgressMessage) => void): () => void {
  listeners.add(listener);
  unsubscribe ??= subscribe(IMPORTS_CHANNEL, {}, (m) => {
    if (isProgress(m)) for (const l of listeners) l(m);
  });
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      unsubscribe?.();
      unsubscribe = null;
    }
  };
}

export function progressText(
  m: Pick<ImportProgressMessage, 'file_name' | 'processed' | 'total' | 'status'> & Partial<ImportProgressMessage>,
) {
  if (m.status === 'completed') {
    const unchanged = m.unchanged ? `, ${m.unchanged} unchanged` : '';
    return `Imported ${m.file_name}: ${m.created ?? 0} created, ${m.updated ?? 0} updated${unchanged}, ${m.skipped ?? 0} skipped, ${m.failed ?? 0} invalid`;
  }
  if (m.status === 'failed') return `Import of ${m.file_name} failed`;
  if (m.status === 'undone') return `Undid the import of ${m.file_name}`;
  if (m.status === 'undoing')
    return `Undoing the import of ${m.file_name}: ${m.processed.toLocaleString()} of ${m.total.toLocaleString()} rows`;
  if (!m.total && m.read) return `Reading ${m.file_name}: ${m.read.toLocaleString()} rows so far`;
  if (!m.total) return `Importing ${m.file_name}…`;
  return `Importing ${m.file_name}: ${m.processed.toLocaleString()} of ${m.total.toLocaleString()} rows`;
}

/** Shows the attempt's progress (or its undo's) in the process notification until it ends. */
export function watchImport(attempt: {
  id: number;
  file_name: string;
  total: number;
  status?: ImportProgressMessage['status'];
}) {
  const link = { linkUrl: `/contacts/imports/${attempt.id}`, linkText: 'View the result' };
  const first = attempt.status === 'undoing' ? 'undoing' : 'pending';
  openProcessNotification({ text: progressText({ ...attempt, processed: 0, status: first }), ...link });
  const stop = onImportProgress((m) => {
    if (m.id !== attempt.id) return;
    const done = m.status === 'completed' || m.status === 'undone';
    const status = done ? 'success' : m.status === 'failed' ? 'error' : 'processing';
    openProcessNotification({ text: progressText(m), status, ...link });
    if (status !== 'processing') stop();
  });
  return stop;
}
