/**
 * A stored file answered whole or by one byte range (`Range: bytes=a-b`, `a-`, `-n`), with its length, so an audio
 * or video element knows the duration and can seek: sent as a bare stream of unknown length, Chromium reported a
 * recording's duration as Infinity when the reply arrived in pieces. Read into memory first: meant for files of a
 * few megabytes (a call recording is 16 kB a second).
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The one range a header asks for, clamped to the file; null for the whole file, 'unsatisfiable' for none. */
export function rangeOf(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null; // absent, several ranges, or not bytes: the whole file
  if (m[1] === '') {
    const n = Number(m[2]);
    return n === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start >= size || end < start ? 'unsatisfiable' : { start, end };
}

export function sendWithRanges(req: FastifyRequest, reply: FastifyReply, body: Buffer, contentType: string) {
  reply.type(contentType).header('accept-ranges', 'bytes');
  const range = rangeOf(req.headers.range, body.length);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${body.length}`).send();
  }
  if (!range) return reply.header('content-length', body.length).send(body);
  const part = body.subarray(range.start, range.end + 1);
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${body.length}`)
    .header('content-length', part.length)
    .send(part);
}
