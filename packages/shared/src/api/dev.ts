/** The development inbox and "be the phone" (development and the embedded demo only; docs/decisions/dev-inbox.md). */
import { z } from 'zod';
import { normalizePhone } from '../phone.js';

export const DevMailSummary = z.object({
  id: z.number(),
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  created_at: z.string(),
});
export const DevMailList = z.object({ data: z.array(DevMailSummary) });
export const DevMail = DevMailSummary.extend({ text: z.string().nullable(), html: z.string().nullable() });

export const DevPhoneEntry = z.object({
  sid: z.string(),
  direction: z.enum(['to_phone', 'from_phone']),
  business: z.string(),
  body: z.string(),
  media: z.array(z.string()),
  at: z.string(),
  status: z.string(),
});
const Phone = z.string().transform((v, ctx) => {
  const p = normalizePhone(v);
  if (!p) ctx.addIssue({ code: 'custom', message: 'is not a valid phone number' });
  return p ?? '';
});
export const DevPhoneList = z.object({ data: z.array(z.object({ number: z.string(), last: DevPhoneEntry })) });
export const DevPhoneQuery = z.object({ number: Phone });
export const DevPhone = z.object({ number: z.string(), entries: z.array(DevPhoneEntry) });
export const DevPhoneReplyBody = z.strictObject({ from: Phone, to: Phone, body: z.string().trim().min(1).max(1600) });
export const DevPhoneReplyReply = z.object({ sid: z.string() });
