/** Page size, Previous / Next, and "go to page": the list's place, all kept in the address. */
import { Button, Group, NumberInput, Select, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useContactsCount } from './ContactsCount';
import { PAGE_SIZES } from './listUrlState';
import type { ContactsList } from './useContactsList';

/** The count comes apart from the page (ContactsCount at the top of the list shows it); here it only bounds the pages. */
export function ContactsPager({ list }: { list: ContactsList }) {
  const meta = list.query.data?.meta;
  const count = useContactsCount(list.scope).data;
  const known = count ? Math.max(1, Math.ceil(count.count / list.state.size)) : list.page + (meta?.has_more ? 1 : 0);
  const pages = Math.min(known, list.numberedPages);
  const more = !count?.exact || known > list.numberedPages;
  const [draft, setDraft] = useState<string | number>(list.page);
  useEffect(() => setDraft(list.page), [list.page]);
  const jump = () => {
    const n = Number(draft);
    if (Number.isInteger(n) && n >= 1 && n !== list.page) list.goTo(Math.min(n, pages));
    else setDraft(list.page);
  };
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="contacts-count">
        {meta ? `Page ${list.page}` : ''}
      </Text>
      <Group gap="xs" wrap="wrap">
        <Select
          label="Rows per page"
          size="xs"
          w={120}
          data={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
          value={String(list.state.size)}
          onChange={(v) => v && list.setPageSize(Number(v))}
          allowDeselect={false}
        />
        <Group gap={6} align="end" wrap="nowrap">
          <Button variant="default" size="xs" onClick={list.previous} disabled={list.page === 1}>
            Previous page
          </Button>
          <NumberInput
            label="Page"
            size="xs"
            w={80}
            min={1}
            max={pages}
            value={draft}
            onChange={setDraft}
            onBlur={jump}
            onKeyDown={(e) => e.key === 'Enter' && jump()}
            hideControls
            disabled={list.state.cursor !== null || pages <= 1}
          />
          <Text size="sm" pb={6} style={{ whiteSpace: 'nowrap' }}>
            of {more || list.page > pages ? `${pages}+` : pages}
          </Text>
          <Button variant="default" size="xs" onClick={list.next} disabled={!meta?.next_cursor}>
            Next page
          </Button>
        </Group>
      </Group>
    </Group>
  );
}
