/**
 * Multipart file parts within their size limit, answered 413 when over. @fastify/multipart cuts a file at its
 * `fileSize` limit and flags it `truncated`, but its toBuffer() looks at the flag only when a chunk arrives: over a
 * real socket a file that overshoots at a chunk boundary came back cut to the limit, unflagged (a 60 MB picture was
 * then refused 422 as "not an image", and a contact file could be stored cut short). Here the flag is read after the
 * whole part was consumed, when it is certain.
 */
import type { MultipartFile } from '@fastify/multipart';
import { HttpError } from '../http/errors.js';

const MB = 1024 * 1024;

export const fileTooLarge = (field: string, maxBytes: number) =>
  new HttpError(413, { [field]: [`is too large; the limit is ${Math.round((maxBytes / MB) * 10) / 10} MB`] });

/** True when the multipart plugin cut the part at its limit (read it after the part's stream ended). */
export const wasCut = (part: MultipartFile) => Boolean((part.file as { truncated?: boolean }).truncated);

/** The part's bytes, at most `maxBytes` (the plugin's fileSize limit for the route must be the same number). */
export async function bufferPart(part: MultipartFile, maxBytes: number, field = 'file'): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  let over = false;
  try {
    for await (const chunk of part.file) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) over = true;
      if (!over) chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(field, maxBytes);
    throw err;
  }
  if (over || wasCut(part)) throw fileTooLarge(field, maxBytes);
  return Buffer.concat(chunks);
}
