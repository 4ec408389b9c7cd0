/**
 * Profile pictures (personal photo and logo; docs/decisions/user-images.md). They arrive as file parts of the
 * multipart PATCH /v1/users/update_profile, are recognised by their bytes (never by name or declared type), stored
 * through the storage port under a key made of server-side ids, and served back by GET /v1/users/{id}/photo and
 * /logo to signed-in users of the same company only (the tenant check of the pipeline answers 404 to others).
 */
import crypto from 'node:crypto';
import type {} from '@fastify/multipart';
import { IMAGE_KINDS, type ImageKind, MAX_IMAGE_BYTES, PROFILE_IMAGE_FIELDS, UpdateProfileBody } from '@harbor/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../../platform/db/schema.js';
import { bufferPart, fileTooLarge } from '../../platform/files/uploads.js';
import { HttpError, invalid, notFound } from '../../platform/http/errors.js';
import { normalizeImage } from './image-normalize.js';

export type ImageField = (typeof PROFILE_IMAGE_FIELDS)[number];
export interface ReceivedImage {
  field: ImageField;
  kind: ImageKind;
  data: Buffer;
}

const startsWith = (buf: Buffer, sig: number[] | string, at = 0) => {
  const want = typeof sig === 'string' ? Buffer.from(sig, 'latin1') : Buffer.from(sig);
  return buf.length >= at + want.length && buf.subarray(at, at + want.length).equals(want);
};

/** The image kind the bytes carry, or null: only these four raster formats (no SVG: it can carry script). */
export function sniffImage(buf: Buffer): ImageKind | null {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(buf, 'GIF87a') || startsWith(buf, 'GIF89a')) return 'gif';
  if (startsWith(buf, 'RIFF') && startsWith(buf, 'WEBP', 8)) return 'webp';
  return null;
}

const NULLABLE_TEXT = ['about_me', 'position_title', 'office_location_id', ...PROFILE_IMAGE_FIELDS];

/**
 * Reads a multipart profile update: image file parts and the text fields of the JSON body ('' clears a nullable
 * field). Everything is checked before anything is written, so a bad part leaves the profile as it was.
 */
export async function readProfileMultipart(req: FastifyRequest) {
  const raw: Record<string, unknown> = {};
  const images: ReceivedImage[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        raw[part.fieldname] = String(part.value ?? '');
        continue;
      }
      const field = part.fieldname as ImageField;
      if (!PROFILE_IMAGE_FIELDS.includes(field)) {
        part.file.resume();
        throw invalid(part.fieldname, 'is not a file field of the profile (personal_photo or logo)');
      }
      const data = await bufferPart(part, MAX_IMAGE_BYTES);
      if (images.some((i) => i.field === field)) throw invalid(field, 'was sent twice');
      const kind = sniffImage(data);
      if (!kind) throw invalid(field, 'must be a PNG, JPEG, GIF or WebP image');
      images.push(await normalizeImage({ field, kind, data }));
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge('file', MAX_IMAGE_BYTES);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw invalid('file', 'Send at most a photo, a logo and the profile fields');
    }
    throw err;
  }
  for (const k of NULLABLE_TEXT) if (raw[k] === '') raw[k] = null;
  if (typeof raw.office_location_id === 'string') raw.office_location_id = Number(raw.office_location_id);
  const parsed = UpdateProfileBody.safeParse(raw);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.') || 'base';
      errors[field] = [...(errors[field] ?? []), issue.message];
    }
    throw new HttpError(422, errors);
  }
  return { body: parsed.data, images };
}

/** Storage keys name the company, the user, the field and the kind; the kind gives the served content type. */
export const imageKey = (companyId: number, userId: number, img: ReceivedImage) =>
  `users/${companyId}/${userId}/${img.field}-${crypto.randomUUID()}-${img.kind}`;

const kindOfKey = (key: string) => key.split('-').pop() as ImageKind;

/** The URL a stored picture is served at; the key's random part busts caches when the picture changes. */
export function imageUrl(userId: number, field: ImageField, stored: string | null): string | null {
  if (!stored) return null;
  if (!stored.startsWith('users/')) return stored;
  const version = stored.slice(stored.lastIndexOf('/') + 1).split('-')[1] ?? '';
  return `/v1/users/${userId}/${field === 'personal_photo' ? 'photo' : 'logo'}?v=${version}`;
}

const Params = z.object({ id: z.coerce.number().int().positive() });
const Query = z.object({ v: z.string().max(40).optional() });

export function imageRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { database, storage } = scope.deps;
  for (const [path, field] of [
    ['photo', 'personal_photo'],
    ['logo', 'logo'],
  ] as const) {
    app.get(
      `/v1/users/:id/${path}`,
      {
        config: { access: 'authenticated', tenant: { param: 'id', resource: 'user' } },
        schema: {
          tags: ['users'],
          summary: `A user's ${path === 'photo' ? 'personal photo' : 'logo'} (same company only)`,
          params: Params,
          querystring: Query,
        },
      },
      async (req, reply) => {
        const [row] = await database.db
          .select({ photo: users.personalPhoto, logo: users.logo })
          .from(users)
          .where(eq(users.id, req.params.id));
        const key = field === 'personal_photo' ? row?.photo : row?.logo;
        if (!key?.startsWith('users/')) throw notFound(path);
        const stream = await storage.get(key);
        if (!stream) throw notFound(path);
        return reply
          .header('content-type', IMAGE_KINDS[kindOfKey(key)])
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'")
          .header('cache-control', 'private, max-age=86400')
          .send(stream);
      },
    );
  }
}
