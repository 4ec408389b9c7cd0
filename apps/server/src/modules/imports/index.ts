/**
 * The imports area (routes.md "imports", 13 routes): lists streamed to staging with COPY, classified and written
 * with set-based SQL by a durable job, progress on ContactsImportChannel.
 */
import multipart from '@fastify/multipart';
import type { Module } from '../types.js';
import { registerAttemptRoutes } from './attempts.js';
import { registerCompactJob } from './compact.js';
import { registerImportJob } from './job.js';
import { registerImportChannel } from './progress.js';
import { registerUploadRoutes } from './routes.js';
import { registerSettingRoutes } from './settings.js';
import { importAttemptTenant, importSettingTenant } from './tenant.js';
import { maxUploadMb } from './upload.js';

export const importsModule: Module = {
  name: 'imports',
  async register(scope, { channels, tenants }) {
    await scope.register(multipart, {
      limits: { fileSize: maxUploadMb() * 1024 * 1024, files: 1, fields: 40, fieldSize: 256 * 1024, parts: 50 },
    });
    tenants.register('import_attempt', importAttemptTenant);
    tenants.register('import_setting', importSettingTenant);
    registerImportChannel(channels, scope.deps.database.db);
    registerImportJob(scope.deps, (name, handler) => scope.deps.jobs.register(name, handler));
    registerCompactJob(scope.deps, (name, handler) => scope.deps.jobs.register(name, handler));
    registerUploadRoutes(scope);
    registerAttemptRoutes(scope);
    registerSettingRoutes(scope);
  },
};
