/**
 * Page meta of every paged list (crm-core §3: current_page, limit, total_count, total_pages), built one way: an empty
 * list is page 1 of 1, so a pager never shows "page 1 of 0".
 */
import type { PageMeta } from '@harbor/shared';

export function pageMeta(page: number, limit: number, total: number): PageMeta {
  return { current_page: page, limit, total_count: total, total_pages: Math.max(1, Math.ceil(total / limit)) };
}

/** The OFFSET of `page` (1-based) at `limit` rows a page. */
export const pageOffset = (page: number, limit: number) => (Math.max(1, page) - 1) * limit;
