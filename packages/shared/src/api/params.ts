/** Path parameters shared by many routes (a numeric id, a contact's number). */
import { z } from 'zod';
import { PageMeta } from './paging.js';

/** `/{id}` of a row named by its numeric id. */
export const IdParams = z.object({ id: z.coerce.number().int().positive() });

/** `/v1/contacts/{id}`: a contact is named by its number (what the address bar shows), not its row id. */
export const ContactParams = z.object({ id: z.string().regex(/^\d{1,15}$/, 'must be a contact number') });

/** A route that answers 204 with no body. */
export const NoContent = z.null();

/**
 * The text parts of a multipart form that carries a JSON body's fields, for the OpenAPI document: each field as
 * text (lists and objects as JSON text). Files are added by the form that takes them, as `z.file()`.
 */
export function textPartsOf(body: z.ZodObject) {
  return z.object(Object.fromEntries(Object.keys(body.shape).map((k) => [k, z.string().optional()])));
}

/** `{ data: [...] }`, the reply of a plain list. */
export const dataList = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/**
 * The schemas of a five-route CRUD set (apps/server platform/http/crud.ts) that are not the area's own: the list
 * reply (paged or not) and the partial body of a PATCH. Made once here, so the server's routes and the contract
 * name the same objects.
 */
export function crudSchemas<I extends z.ZodType, B extends z.ZodObject>(item: I, body: B) {
  return { list: dataList(item), patch: body.partial() };
}
export function pagedCrudSchemas<I extends z.ZodType, B extends z.ZodObject>(item: I, body: B) {
  return { list: z.object({ data: z.array(item), meta: PageMeta }), patch: body.partial() };
}
