import { z } from 'zod';

/** Paging meta of every paged list (crm-core §3: current_page, limit, total_count, total_pages). */
export const PageMeta = z.object({
  current_page: z.number(),
  limit: z.number(),
  total_count: z.number(),
  total_pages: z.number(),
  /**
   * True when counting stopped early and total_count is a lower bound ("1,030 or more"): a list whose full count
   * would cost more than the page itself (the texting inbox) counts only so far past the page asked for.
   */
  total_at_least: z.boolean().optional(),
});
export type PageMeta = z.infer<typeof PageMeta>;
