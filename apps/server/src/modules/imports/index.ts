/**
 * The imports area (routes.md "imports", 13 routes): lists streamed to staging with COPY, classified and written
 * with set-based SQL by a durable job, progress on ContactsImportChannel.
 */
import multipart from '@fastify/multipart';
import { registerSweepJob } from '../../platform/files/sweeper.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import type { Module } from '../types.js';
import { registerAttemptRoutes } from './attempts.js';
import { registerCompactJob } from './compact.js';
import { registerImportJob } from './job.js';
import { registerImportChannel } from './progress.js';
import { registerResultRoutes } from './result-routes.js';
import { registerUploadRoutes } from './routes.js';
import { importAttempts, importSettings } from './schema.js';
import { registerSettingRoutes } from './settings.js';
import { registerUndoJob } from './undo-job.js';
import { maxUploadMb, sweepUploads } from './upload.js';

export const importsModule: Module = {
  name: 'imports',
  async register(scope, { channels, tenants }) {
    await scope.register(multipart, {
      limits: { fileSize: maxUploadMb() * 1024 * 1024, files: 1, fields: 40, fieldSize: 256 * 1024, parts: 50 },
    });
    tenants.register('import_attempt', companyRowResolver(importAttempts, { key: importAttempts.number }));
    tenants.register('import_setting', companyRowResolver(importSettings));
    registerImportChannel(channels, scope.deps.database.db);
    registerImportJob(scope.deps, (name, handler) => scope.deps.jobs.register(name, handler));
    registerCompactJob(scope.deps, (name, handler) => scope.deps.jobs.register(name, handler));
    // The orphan sweeper is registered here because the imports area owns the uploads directory it also cleans.
    registerSweepJob(scope.deps, {
      import_uploads: () => sweepUploads(scope.deps.database, scope.deps.config.dataDir),
    });
    registerUndoJob(scope.deps, (name, handler) => scope.deps.jobs.register(name, handler));
    registerUploadRoutes(scope);
    registerAttemptRoutes(scope);
    registerResultRoutes(scope);
    registerSettingRoutes(scope);
  },
};
