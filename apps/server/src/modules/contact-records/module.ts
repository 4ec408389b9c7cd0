import multipart from '@fastify/multipart';
import { MAX_FILE_BYTES } from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { Module } from '../types.js';
import { fileRoutes } from './files.js';
import { noteRoutes } from './notes.js';
import { policyAndSecurityRoutes } from './policies.js';

/** The `contact-records` area: notes, files, policies and securities under /v1/contacts/{id}/. */
export const contactRecordsModule: Module = {
  name: 'contact-records',
  async register(scope: FastifyInstance) {
    // One file per request; the size cap makes toBuffer() fail with FST_REQ_FILE_TOO_LARGE instead of buffering more.
    await scope.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 5, parts: 6 } });
    noteRoutes(scope);
    fileRoutes(scope);
    policyAndSecurityRoutes(scope);
  },
};
