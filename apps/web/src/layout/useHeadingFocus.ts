import { type RefObject, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * After a navigation (a new path; a changed query string is the same page), focus moves to the new page's heading,
 * so a screen reader announces where the person landed and Tab starts from the page, not from the nav link.
 * Headings that appear after data loads are waited for; focus someone moved themselves meanwhile is left alone.
 */
export function useHeadingFocus(container: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      // A first load keeps the browser's own start (the skip link is the first thing Tab reaches).
      first.current = false;
      return;
    }
    const root = container.current;
    if (!root || !pathname) return;
    const before = document.activeElement;
    const tryFocus = () => {
      const heading = root.querySelector<HTMLElement>('[data-page-heading]');
      if (!heading) return false;
      const now = document.activeElement;
      const movedByPerson = now && now !== before && now !== document.body && root.contains(now);
      if (!movedByPerson) heading.focus();
      return true;
    };
    if (tryFocus()) return;
    const observer = new MutationObserver(() => {
      if (tryFocus()) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    const stop = setTimeout(() => observer.disconnect(), 5000);
    return () => {
      observer.disconnect();
      clearTimeout(stop);
    };
  }, [pathname, container]);
}
