/**
 * Multipart routes read their parts themselves (a zod body would refuse a stream), so their form is declared apart:
 * `schema.multipart`, a zod object of the text fields and the file parts (`z.file()`), shared with the browser's
 * contract. This transform puts it in the OpenAPI document as the `multipart/form-data` request body, beside the
 * JSON body of routes that take both.
 */
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifySchema {
    /** The multipart/form-data form of the route, for the OpenAPI document only. */
    multipart?: z.ZodObject;
  }
}

type TransformArgs = Parameters<typeof jsonSchemaTransform>[0];

export function openApiTransform(args: TransformArgs): ReturnType<typeof jsonSchemaTransform> {
  const { multipart, ...schema } = (args.schema ?? {}) as { multipart?: z.ZodObject; [key: string]: unknown };
  const out = jsonSchemaTransform({ ...args, schema } as TransformArgs);
  if (!multipart) return out;
  const form = z.toJSONSchema(multipart, { io: 'input', target: 'openapi-3.0', unrepresentable: 'any' });
  const body = (out.schema as { body?: unknown }).body;
  const content: Record<string, { schema: unknown }> = { 'multipart/form-data': { schema: form } };
  if (body) content['application/json'] = { schema: body };
  return { ...out, schema: { ...out.schema, body: { content } } };
}
