/** ContactsImportChannel: each person hears the progress of their own imports on their own stream. */
import { IMPORTS_CHANNEL, type ImportAttemptStatus, type ImportProgressMessage } from '@harbor/shared';
import { and, desc, eq, gt, inArray, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { Bus } from '../../platform/live/bus.js';
import type { ChannelRegistry } from '../../platform/live/channels.js';
import { publishLive } from '../../platform/live/publish.js';
import { importAttempts } from './schema.js';

export const importStream = (userId: number) => `user:${userId}:contacts_import`;

/** How long a finished attempt is still replayed to a client that subscribes after it ended. */
const CATCH_UP_MS = 10 * 60_000;

export function registerImportChannel(channels: ChannelRegistry, db: Db) {
  channels.register({
    name: IMPORTS_CHANNEL,
    streamFor: (auth) => importStream(auth.user.id),
    // A small list finishes before the browser's subscribe arrives: replay the subscriber's running attempts and
    // those that ended lately, so the process notification still reaches its end.
    catchUp: async (auth) => {
      const rows = await db
        .select()
        .from(importAttempts)
        .where(
          and(
            eq(importAttempts.companyId, auth.company.id),
            eq(importAttempts.userId, auth.user.id),
            or(
              inArray(importAttempts.status, ['pending', 'processing']),
              gt(importAttempts.updatedAt, new Date(Date.now() - CATCH_UP_MS)),
            ),
          ),
        )
        .orderBy(desc(importAttempts.id))
        .limit(20);
      return rows.reverse().map(progressMessage);
    },
  });
}

export interface AttemptFigures {
  id: number;
  /** The id the browser knows (per company); `id` is internal. */
  number: number;
  userId: number;
  status: string;
  fileName: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  unchanged?: number;
  skipped: number;
  failed: number;
}

function progressMessage(a: AttemptFigures): ImportProgressMessage {
  return {
    id: a.number,
    status: a.status as ImportAttemptStatus,
    file_name: a.fileName,
    processed: a.processed,
    total: a.total,
    created: a.created,
    updated: a.updated,
    skipped: a.skipped,
    failed: a.failed,
    unchanged: a.unchanged ?? 0,
  };
}

export function publishProgress(bus: Bus, a: AttemptFigures, read?: number) {
  const message = progressMessage(a);
  if (read !== undefined) message.read = read;
  publishLive(bus, IMPORTS_CHANNEL, importStream(a.userId), message).catch(() => {});
}
