/**
 * POST /v1/contacts/duplicate_check (DECIDED, docs/decisions/contact-duplicate-check.md): before a contact is
 * created, which contacts already have this phone or email. Visible ones are named; the rest are only counted.
 */
import { z } from 'zod';

export const DuplicateCheckBody = z
  .strictObject({
    phone: z.string().trim().max(40).nullish(),
    email: z.string().trim().max(254).nullish(),
  })
  .refine((b) => Boolean(b.phone || b.email), { message: 'give a phone or an email', path: ['phone'] });

export const DuplicateMatch = z.object({
  id: z.number(),
  number: z.number(),
  name: z.string(),
  owner: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Which of the given values this contact shares. */
  matched_on: z.array(z.enum(['phone', 'email'])),
});
export type DuplicateMatch = z.infer<typeof DuplicateMatch>;

export const DuplicateCheckReply = z.object({
  /** Contacts the caller can see (at most 10, oldest first). */
  matches: z.array(DuplicateMatch),
  /** Contacts of the company with the same phone or email that the caller cannot see. */
  hidden_count: z.number(),
});
export type DuplicateCheckReply = z.infer<typeof DuplicateCheckReply>;
