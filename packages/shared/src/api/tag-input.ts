import { z } from 'zod';

/** A tag as a form names it (crm-core §3 Tag: name, color); unknown names are created. Imports and bulk tagging share it. */
export const TagInput = z.object({
  name: z.string().trim().min(1).max(60),
  color: z.string().trim().max(30).optional(),
});
