// Every flow imports `test` from here: each Playwright worker drives its own Harbor server (playwright.config.ts),
// found by the worker's parallelIndex, so flows running side by side never change one another's demo users.
import { test as base } from '@playwright/test';

export * from '@playwright/test';

const urls = (process.env.E2E_BASE_URLS ?? '').split(',').filter(Boolean);

export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use, testInfo) => {
    const url = urls[testInfo.parallelIndex];
    if (!url) throw new Error(`no Harbor server for worker ${testInfo.parallelIndex} (E2E_BASE_URLS: ${urls})`);
    await use(url);
  },
});
