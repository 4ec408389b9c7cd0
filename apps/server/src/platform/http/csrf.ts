/**
 * Double-submit CSRF: a random token in a readable cookie, echoed by the browser as X-CSRF-Token. A cross-site page
 * can make the browser send our cookies but cannot read them, so it cannot produce the header.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';

export function checkCsrf(req: FastifyRequest) {
  const cookie = req.cookies[CSRF_COOKIE];
  const header = req.headers[CSRF_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  if (!cookie || !value || !timingSafeEqual(cookie, value)) {
    throw new HttpError(403, { csrf: ['Invalid or missing CSRF token. Reload the page and try again.'] });
  }
}

function timingSafeEqual(a: string, b: string) {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

/** Every response carries the cookie when the browser has none yet, so the first state-changing call can echo it. */
export function ensureCsrfCookie(req: FastifyRequest, reply: FastifyReply, secure: boolean) {
  if (req.cookies[CSRF_COOKIE]) return;
  reply.setCookie(CSRF_COOKIE, crypto.randomBytes(32).toString('base64url'), {
    path: '/',
    sameSite: 'lax',
    secure,
    httpOnly: false,
  });
}
