/**
 * The page's one h1 and the browser tab's title, together: every screen names itself the same way in the tab, in
 * the history list and to a screen reader. The layout moves focus here after each navigation (useHeadingFocus).
 */
import { Title, type TitleProps } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';

export const APP_NAME = 'Harbor';

/** "Mary Smith · Contacts · Harbor": the most specific part first, so a row of tabs stays tellable apart. */
export function usePageTitle(...parts: Array<string | null | undefined | false>) {
  const named = parts.filter((p): p is string => !!p);
  const title = [...named, APP_NAME].join(' · ');
  useEffect(() => {
    // No parts: the page names itself elsewhere (its heading), and a parent's effect runs after its children's.
    if (named.length) document.title = title;
  }, [title, named.length]);
}

export function PageHeading({
  title,
  section,
  children,
  ...rest
}: Omit<TitleProps, 'order' | 'children' | 'title'> & {
  /** What the tab says (and what shows, unless children say it differently). */
  title: string;
  /** The area the page belongs to, after the title in the tab ("Mary Smith · Contacts"). */
  section?: string;
  children?: ReactNode;
}) {
  usePageTitle(title, section);
  return (
    <Title order={1} size="h2" tabIndex={-1} data-page-heading style={{ outlineOffset: 4 }} {...rest}>
      {children ?? title}
    </Title>
  );
}
