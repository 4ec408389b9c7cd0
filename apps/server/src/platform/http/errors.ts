/**
 * The one error shape: `{ errors: { <field or user>: [message] } }`. Handlers throw HttpError; the error handler
 * turns validation failures into 422 with field names and hides every internal of a 5xx.
 */

import { ACCESS_DENIED } from '@harbor/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export type ErrorMap = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errors: ErrorMap,
    readonly headers: Record<string, string> = {},
  ) {
    super(Object.values(errors).flat().join('; '));
  }
}

export const unauthorized = (msg = 'You need to sign in or sign up before continuing.') =>
  new HttpError(401, { user: [msg] });
export const forbidden = (msg = ACCESS_DENIED) => new HttpError(403, { user: [msg] });
export const notFound = (what = 'record') => new HttpError(404, { [what]: ['not found'] });
export const invalid = (field: string, msg: string) => new HttpError(422, { [field]: [msg] });
export const conflict = (field: string, msg: string) => new HttpError(409, { [field]: [msg] });

function fieldOf(instancePath: string | undefined, context: string | undefined): string {
  const p = (instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  return p || context || 'base';
}

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof HttpError) {
      reply.headers(err.headers);
      return reply.code(err.statusCode).send({ errors: err.errors });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: ErrorMap = {};
      for (const v of err.validation) {
        const field = fieldOf(v.instancePath, err.validationContext);
        const message = v.message ?? 'is invalid';
        const list = errors[field] ?? [];
        if (!list.includes(message)) list.push(message);
        errors[field] = list;
      }
      return reply.code(422).send({ errors });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // The body, not a file: uploads are multipart and answer their own 413 naming the file.
      const limit = req.routeOptions?.bodyLimit ?? req.server.initialConfig.bodyLimit ?? 0;
      return reply.code(413).send({ errors: { body: [`is too large (max ${megabytes(limit)} MB)`] } });
    }
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.code(413).send({ errors: { file: ['is too large'] } });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type): keep the message, not internals.
      return reply.code(status).send({ errors: { request: [clientMessage(err)] } });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ errors: { server: ['Something went wrong on our side. Please try again.'] } });
  });
}

const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function clientMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'is not valid JSON';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'has an unsupported content type';
    default:
      return err.message.replace(/^FST_\w+:\s*/, '').slice(0, 200);
  }
}
