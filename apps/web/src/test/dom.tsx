/**
 * Just enough of a DOM testing kit for happy-dom (the workspace has no Testing Library): mount, find by label or
 * role name, type, click, and wait.
 */
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let container: HTMLElement | null = null;

export async function mount(node: ReactNode): Promise<HTMLElement> {
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => root?.render(node));
  return container;
}

/** Render new props into the mounted root. */
export async function rerender(node: ReactNode): Promise<void> {
  await act(async () => root?.render(node));
}

export async function unmount(): Promise<void> {
  await act(async () => root?.unmount());
  container?.remove();
  root = null;
  container = null;
  document.body.innerHTML = '';
}

const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

export function queryByText(needle: string | RegExp): HTMLElement | null {
  const all = Array.from(document.body.querySelectorAll<HTMLElement>('*'));
  // The innermost element whose own text matches.
  const hits = all.filter((el) => (typeof needle === 'string' ? text(el) === needle : needle.test(text(el))));
  return hits.find((el) => !hits.some((other) => other !== el && el.contains(other))) ?? null;
}

export function queryByLabel(label: string): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null {
  for (const l of Array.from(document.querySelectorAll('label'))) {
    if (text(l).replace(/\s*\*$/, '') !== label) continue;
    const id = l.getAttribute('for');
    const el = id ? document.getElementById(id) : l.querySelector('input,select,textarea');
    if (el) return el as HTMLInputElement;
  }
  const aria = document.querySelector(`[aria-label="${label}"]`);
  return (aria as HTMLInputElement | null) ?? null;
}

/** A control's name as a screen reader hears it, near enough: its text without what is hidden from readers. */
function accessibleText(el: Element): string {
  if (!el.querySelector('[aria-hidden="true"]')) return text(el);
  const copy = el.cloneNode(true) as Element;
  for (const hidden of Array.from(copy.querySelectorAll('[aria-hidden="true"]'))) hidden.remove();
  return text(copy);
}

export function queryButton(name: string): HTMLElement | null {
  const buttons = Array.from(document.querySelectorAll<HTMLElement>('button, a, [role="button"], [role="menuitem"]'));
  return (
    buttons.find((b) => b.getAttribute('aria-label') === name || text(b) === name || accessibleText(b) === name) ?? null
  );
}

export async function waitFor<T>(probe: () => T | null | undefined | false, what = 'condition', ms = 8000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() - start > ms) throw new Error(`Timed out waiting for ${what}\n${text(document.body).slice(0, 800)}`);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10));
    });
  }
}

export const findByText = (needle: string | RegExp) => waitFor(() => queryByText(needle), `text ${needle}`);
export const findByLabel = (label: string) => waitFor(() => queryByLabel(label), `label ${label}`);
export const findButton = (name: string) => waitFor(() => queryButton(name), `button ${name}`);

/** React tracks input values itself; set through the native setter so onChange fires. */
export async function type(el: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, value: string) {
  const proto = Object.getPrototypeOf(el);
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  await act(async () => {
    setter?.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

export async function click(el: HTMLElement) {
  await act(async () => {
    el.click();
  });
}
