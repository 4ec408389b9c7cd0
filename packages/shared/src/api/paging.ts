import { z } from 'zod';

/** Paging meta of every paged list (crm-core §3: current_page, limit, total_count, total_pages). */
export const PageMeta = z.object({
  current_page: z.number(),
  limit: z.number(),
  total_count: z.number(),
  total_pages: z.number(),
});
export type PageMeta = z.infer<typeof PageMeta>;
