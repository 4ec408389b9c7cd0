/**
 * How many contacts the list's scope matches, asked apart from the page (PATCH /v1/contacts/count), so the rows show
 * at once and the count follows with its own loading state. Exact counts read "4,303 contacts"; an estimate reads
 * "about 371,600 contacts" and says how close it is in a tooltip. Paging does not ask again: the count depends on
 * the filter, not on the page.
 */

import type { ContactCountReply, ContactsScopeInput } from '@harbor/shared';
import { Loader, Text, Tooltip } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callQuery } from '../../api/queries';

export function useContactsCount(scope: ContactsScopeInput) {
  return useQuery({
    ...callQuery('PATCH /v1/contacts/count', {
      body: { ...scope, cursor: undefined, page: undefined, limit: undefined },
    }),
    placeholderData: keepPreviousData,
  });
}

/** An estimate keeps four significant digits: "about 371,600", not a precise-looking 371,636. */
function rounded(n: number): number {
  if (n < 10_000) return n;
  const step = 10 ** (Math.floor(Math.log10(n)) - 3);
  return Math.round(n / step) * step;
}

/** "4,303" or "about 371,600" (what a sentence around it needs), or null while nothing is known. */
export function countLabel(c: ContactCountReply | undefined): string | null {
  if (!c) return null;
  return c.exact ? c.count.toLocaleString('en-US') : `about ${rounded(c.count).toLocaleString('en-US')}`;
}

export function ContactsCount({ scope }: { scope: ContactsScopeInput }) {
  const count = useContactsCount(scope);
  if (count.isError) {
    return (
      <Text size="sm" c="dimmed">
        Count unavailable
      </Text>
    );
  }
  const label = countLabel(count.data);
  if (!label) return <Loader size="xs" aria-label="Counting contacts" />;
  const noun = count.data?.count === 1 ? 'contact' : 'contacts';
  if (count.data?.exact) {
    return (
      <Text size="sm" c="dimmed" aria-live="polite" aria-busy={count.isFetching}>
        {label} {noun}
      </Text>
    );
  }
  const margin = ((count.data?.margin ?? 0) * 100).toFixed(1);
  const how = `Estimated from a random sample of the book; within ±${margin}% (99% confidence).`;
  return (
    <Tooltip label={how} withArrow>
      <Text size="sm" c="dimmed" aria-live="polite" aria-label={`${label} ${noun}. ${how}`} tabIndex={0}>
        {label} {noun}
      </Text>
    </Tooltip>
  );
}
