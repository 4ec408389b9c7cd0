/**
 * Two-factor recovery codes: generated when two-factor is turned on (and on request), shown once, each usable once
 * at the code step instead of a one-time code. Shape `abcd-efgh-jkmn`: the first group finds the row, the other
 * two are the secret (~40 bits from a CSPRNG), stored as an argon2id hash, so one attempt costs one hash.
 */
import crypto from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { burnPasswordTime, hashPassword, verifyPassword } from './passwords.js';
import { recoveryCodes } from './schema.js';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/i/l: read off paper and typed back without doubt. */
const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
const GROUP = 4;

function randomGroup(): string {
  let s = '';
  for (let i = 0; i < GROUP; i++) s += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return s;
}

/** What the person typed, as stored: lower case, without spaces or dashes; null when it cannot be a code. */
export function normalizeRecoveryCode(input: string): { lookup: string; secret: string } | null {
  const v = input.toLowerCase().replace(/[\s-]/g, '');
  if (v.length !== GROUP * 3 || [...v].some((ch) => !ALPHABET.includes(ch))) return null;
  return { lookup: v.slice(0, GROUP), secret: v.slice(GROUP) };
}

/** Replaces the user's codes with a new set (inside the caller's transaction) and answers them, formatted. */
export async function replaceRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const lookups = new Set<string>();
  while (lookups.size < RECOVERY_CODE_COUNT) lookups.add(randomGroup());
  const codes = [...lookups].map((lookup) => ({ lookup, secret: randomGroup() + randomGroup() }));
  const hashes = await Promise.all(codes.map((c) => hashPassword(c.secret)));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codes.map((c, i) => ({ userId, lookup: c.lookup, codeHash: hashes[i] })));
  return codes.map((c) => `${c.lookup}-${c.secret.slice(0, GROUP)}-${c.secret.slice(GROUP)}`);
}

export async function deleteRecoveryCodes(db: Db, userId: number) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return n;
}

/** Checks a code and spends it in the same statement that finds it unused: two racing uses cannot both pass. */
export async function spendRecoveryCode(db: Db, userId: number, input: string): Promise<boolean> {
  const code = normalizeRecoveryCode(input);
  if (!code) return false;
  const candidates = await db
    .select()
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.lookup, code.lookup), isNull(recoveryCodes.usedAt)));
  // Same work whether the first group matched a code or not: the answer's timing tells nothing.
  if (candidates.length === 0) await burnPasswordTime(code.secret);
  for (const row of candidates) {
    if (!(await verifyPassword(row.codeHash, code.secret))) continue;
    const spent = await db
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(recoveryCodes.id, row.id), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return spent.length === 1;
  }
  return false;
}
