/**
 * Runs before every web test file (vitest.config.ts, project "web"). A test fails when, during it:
 * - anything calls console.error or console.warn (React reports invalid markup, missing keys and updates outside
 *   act() there) unless the test declared it expected with `expectConsole`;
 * - the page makes a request its fake server does not know (test/server.ts), or any request without one.
 */
import { format } from 'node:util';
import { afterEach, beforeEach } from 'vitest';
import { noServer, takeUnexpectedRequests } from './server';

type Level = 'error' | 'warn';
const original = { error: console.error, warn: console.warn };
/**
 * Messages that come from the test environment, not from the app; each with the reason it is not a finding.
 * - Mantine's focus trap looks for a focusable element on a timer; in happy-dom the popover or menu is still (or
 *   already) `display: none` from its transition when the timer fires, so it finds none and says so. Not a finding
 *   about our markup: the dropdowns it names hold buttons, which the tests click.
 */
const ENVIRONMENT: { level: Level; pattern: RegExp }[] = [
  { level: 'warn', pattern: /^\[@mantine\/hooks\/use-focus-trap\] Failed to find focusable element/ },
];
let problems: string[] = [];
let expected: { level: Level; pattern: RegExp }[] = [];

/** For a test that provokes a console message on purpose (a malformed live message, say). */
export function expectConsole(level: Level, pattern: RegExp): void {
  expected.push({ level, pattern });
}

function capture(level: Level) {
  return (...args: unknown[]) => {
    const message = format(...args);
    if ([...ENVIRONMENT, ...expected].some((e) => e.level === level && e.pattern.test(message))) return;
    problems.push(`console.${level}: ${message}`);
    original[level](...args);
  };
}

beforeEach(() => {
  problems = [];
  expected = [];
  // Assigned, not spied: a test's vi.restoreAllMocks() must not switch the check off.
  console.error = capture('error');
  console.warn = capture('warn');
  // vi.stubGlobal in a test restores to this on vi.unstubAllGlobals().
  globalThis.fetch = noServer as typeof fetch;
  takeUnexpectedRequests();
});

afterEach(() => {
  const unknown = takeUnexpectedRequests();
  const found = [
    ...unknown.map((key) => `a request the fake server does not know: ${key}`),
    ...problems.splice(0).map((p) => (p.length > 2000 ? `${p.slice(0, 2000)}…` : p)),
  ];
  if (found.length) throw new Error(`The test is not clean:\n- ${found.join('\n- ')}`);
});
