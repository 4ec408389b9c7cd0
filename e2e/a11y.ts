/**
 * The accessibility check of the browser flows: axe-core (from npm, injected into the page) run on what is on
 * screen, keeping the critical and serious violations, plus helpers to reach the demo records the screens need.
 */
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import { SHOTS } from './helpers';

// Browser globals of the code that runs inside the page (page.evaluate); this project compiles without the DOM lib.
declare const document: any;
declare const window: any;
declare const getComputedStyle: any;
declare const PopStateEvent: any;
declare const requestAnimationFrame: (cb: () => void) => number;
type Document = any;

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; html?: string; failureSummary?: string }>;
}

/**
 * The rules whose outcome depends on the colors. The dark scheme changes only colors (Mantine's CSS variables; the
 * same elements, names and roles), so a screen in the dark scheme is checked by these alone: every other rule gives
 * the light scheme's answer on the same screen, and running them twice was about half of a dark check's time.
 */
export const COLOR_RULES = ['color-contrast', 'link-in-text-block'];

/** Waits for the page to settle (its heading, requests, transitions), then lists its critical and serious findings. */
export async function axeFindings(page: Page, where: string): Promise<string[]> {
  await page.waitForLoadState('networkidle').catch(() => {});
  await settled(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async (colorRules: string[]) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<unknown> } }).axe;
    const dark = document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark';
    const only = dark ? { runOnly: { type: 'rule', values: colorRules } } : {};
    const r = (await axe.run(document, { resultTypes: ['violations'], ...only })) as { violations: unknown[] };
    return r.violations;
  }, COLOR_RULES);
  return (violations as Violation[])
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.help}\n${v.nodes
          .slice(0, 4)
          .map(
            (n) =>
              `    ${n.target.join(' ')} ${(n.html ?? '').slice(0, 200)}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 220)}`,
          )
          .join('\n')}`,
    );
}

/**
 * Waits until nothing on the page is moving: Mantine's transitions (a dialog's or menu's 200 ms fade) start a frame
 * or two after the state that shows them, then run as CSS transitions. Check what a person sees, not a fade; a
 * spinner's endless animation does not count. A still page takes three frames, not a fixed 350 ms.
 */
async function settled(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const deadline = performance.now() + 2_000;
        let frames = 0;
        const tick = () => {
          frames++;
          const moving = document
            .getAnimations()
            .some((a: any) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime ?? 0));
          if ((frames >= 3 && !moving) || performance.now() > deadline) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

/** Checks the page as it is now: findings go to the log and into `found`; a full-page screenshot when named. */
export async function check(page: Page, found: string[], where: string, shot?: string) {
  const findings = await axeFindings(page, where);
  for (const f of findings) console.log(f);
  found.push(...findings);
  if (shot) await page.screenshot({ path: `${SHOTS}/${shot}.png`, fullPage: true });
}

/** Opens something (a menu, a dialog), checks the page with it open, and closes it with Escape. */
export async function withOpen(page: Page, found: string[], where: string, open: () => Promise<void>) {
  await open();
  await check(page, found, where);
  // The first Escape may only close a picker's list inside the dialog.
  for (let i = 0; i < 3 && (await page.getByRole('dialog').or(page.getByRole('menu')).count()) > 0; i++) {
    await page.keyboard.press('Escape');
    await page.waitForTimeout(250);
  }
}

/** Opens a screen with a full page load and waits for its page heading (every screen has one h1). */
export async function openScreen(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('[data-page-heading]').first()).toBeVisible();
}

/**
 * Shows a screen and waits for its page heading. Once the app is loaded, screens are
 * reached as a person reaches them, by the router (history.pushState + popstate), not by reloading the whole app:
 * a reload per screen was most of the accessibility flows' time. The first screen, and a screen after signing in or
 * out, is a full load.
 */
export async function showScreen(page: Page, path: string) {
  const app = page.url().startsWith('http')
    ? await page.evaluate(() => document.querySelector('[data-page-heading]') !== null).catch(() => false)
    : false;
  if (!app) return openScreen(page, path);
  // The old screen's heading is marked, so the wait below sees the new screen's, not the one still on screen. Another
  // tab of the same screen (only the query changes) keeps its heading.
  const sameScreen = await page.evaluate(
    (to: string) => new URL(to, window.location.href).pathname === window.location.pathname,
    path,
  );
  await page.evaluate((to: string) => {
    for (const h of document.querySelectorAll('[data-page-heading]')) h.setAttribute('data-stale', '');
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  const fresh = page.locator('[data-page-heading]:not([data-stale])').first();
  // Two routes of one page component (another tab, another product) keep the same heading element.
  const replaced =
    !sameScreen &&
    (await fresh
      .waitFor({ state: 'visible', timeout: 3_000 })
      .then(() => true)
      .catch(() => false));
  if (!replaced) await expect(page.locator('[data-page-heading]').first()).toBeVisible();
}

/** The CSRF header for API calls made through the page's cookies. */
async function csrf(page: Page): Promise<Record<string, string>> {
  await page.request.get('/v1/health');
  const token = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  return { 'X-CSRF-Token': token };
}

export async function api<T>(page: Page, method: 'GET' | 'POST' | 'PATCH', url: string, data?: unknown): Promise<T> {
  const res = await page.request.fetch(url, { method, data, headers: method === 'GET' ? {} : await csrf(page) });
  expect(res.ok(), `${method} ${url} -> ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

export interface Row {
  id: number;
  number: number;
  first_name: string;
  last_name: string;
  phone: string | null;
  owner: { id: number; name: string } | null;
}

export const listContacts = async (page: Page, scope: Record<string, unknown> = {}) =>
  (await api<{ data: Row[] }>(page, 'PATCH', '/v1/contacts', { limit: 50, ...scope })).data;
