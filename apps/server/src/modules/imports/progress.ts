/** ContactsImportChannel: each person hears the progress of their own imports on their own stream. */
import { IMPORTS_CHANNEL, type ImportAttemptStatus, type ImportProgressMessage } from '@harbor/shared';
import type { Bus } from '../../platform/live/bus.js';
import type { ChannelRegistry } from '../../platform/live/channels.js';

export const importStream = (userId: number) => `user:${userId}:contacts_import`;

export function registerImportChannel(channels: ChannelRegistry) {
  channels.register({ name: IMPORTS_CHANNEL, streamFor: (auth) => importStream(auth.user.id) });
}

export interface AttemptFigures {
  id: number;
  userId: number;
  status: string;
  fileName: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
}

export function publishProgress(bus: Bus, a: AttemptFigures) {
  const message: ImportProgressMessage = {
    id: a.id,
    status: a.status as ImportAttemptStatus,
    file_name: a.fileName,
    processed: a.processed,
    total: a.total,
    created: a.created,
    updated: a.updated,
    skipped: a.skipped,
    failed: a.failed,
  };
  void Promise.resolve(bus.publish(importStream(a.userId), message)).catch(() => {});
}
