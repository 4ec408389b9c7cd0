/** Path parameters shared by many routes (a numeric id, a contact's number). */
import { z } from 'zod';

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
