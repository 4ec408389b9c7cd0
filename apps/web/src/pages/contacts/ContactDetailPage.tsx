/** /contacts/:number: the contact header, then tabs for details, notes, files, holdings, more and the timeline. */

import { Alert, Loader, Stack, Tabs } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { type Contact, contactsApi } from '../../api/contacts';
import { callQuery, qk } from '../../api/queries';
import { usePageTitle } from '../../components/PageHeading';
import { NotFoundPage } from '../NotFoundPage';
import { CallsPanel } from './CallsPanel';
import { ConsentCard } from './ConsentCard';
import { ContactForm } from './ContactForm';
import { ContactHeader } from './ContactHeader';
import { EmailPanel } from './EmailPanel';
import { FilesPanel } from './FilesPanel';
import { HoldingsPanel } from './HoldingsPanel';
import { MorePanel } from './MorePanel';
import { NotesPanel } from './NotesPanel';
import { Timeline } from './Timeline';

// The calendar tab brings the event dialog and the SOA form: loaded when the tab is first opened.
const ContactEventsPanel = lazy(async () => ({
  default: (await import('../calendar/ContactEventsPanel')).ContactEventsPanel,
}));

const TABS = [
  { value: 'details', label: 'Details' },
  { value: 'notes', label: 'Notes' },
  { value: 'files', label: 'Files' },
  { value: 'holdings', label: 'Policies & securities' },
  { value: 'more', label: 'More' },
  { value: 'calendar', label: 'Calendar' },
  { value: 'email', label: 'Email' },
  { value: 'calls', label: 'Calls' },
  { value: 'timeline', label: 'Timeline' },
] as const;

/** A contact that does not exist, or that the person may not see (the server answers both with 404). */
function ContactNotFound({ number }: { number: string }) {
  return (
    <NotFoundPage
      title="Contact not found"
      text={`There is no contact #${number} in your book. It may have been deleted, merged or moved to someone else.`}
      back={{ to: '/contacts', label: 'Back to contacts' }}
    />
  );
}

export function ContactDetailPage() {
  const { number = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const qc = useQueryClient();
  const key = qk('GET /v1/contacts/{id}', { params: { id: number } });
  const query = useQuery({
    ...callQuery('GET /v1/contacts/{id}', { params: { id: number } }),
    enabled: /^\d+$/.test(number),
  });
  const tab = TABS.some((t) => t.value === params.get('tab')) ? (params.get('tab') as string) : 'details';
  const put = (c: Contact) => qc.setQueryData(key, c);
  const refetch = () => void qc.invalidateQueries({ queryKey: key, exact: true });

  const missing = !/^\d+$/.test(number) || (query.error instanceof ApiError && query.error.status === 404);
  usePageTitle(query.isPending && !missing ? 'Contact' : null, query.isPending && !missing ? 'Contacts' : null);
  if (missing) return <ContactNotFound number={number} />;
  if (query.isPending) return <Loader aria-label="Loading the contact" />;
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(query.error, 'This contact could not be loaded.')}
      </Alert>
    );
  const contact = query.data;
  const n = contact.number;
  return (
    <Stack>
      <ContactHeader key={`${n}-${contact.updated_at}`} contact={contact} onChanged={put} />
      <ConsentCard number={n} />
      <Tabs value={tab} onChange={(v) => v && setParams({ tab: v })} keepMounted={false}>
        {/* Seven tabs do not fit a phone: the row scrolls inside itself instead of pushing the page sideways. */}
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          <ContactForm
            key={contact.updated_at}
            contact={contact}
            submitLabel="Save changes"
            onSubmit={async (body) => put(await contactsApi.update(n, body))}
          />
        </Tabs.Panel>
        <Tabs.Panel value="notes" pt="md">
          <NotesPanel number={n} onChanged={refetch} />
        </Tabs.Panel>
        <Tabs.Panel value="files" pt="md">
          <FilesPanel number={n} onChanged={refetch} />
        </Tabs.Panel>
        <Tabs.Panel value="holdings" pt="md">
          <HoldingsPanel number={n} onChanged={refetch} />
        </Tabs.Panel>
        <Tabs.Panel value="more" pt="md">
          <MorePanel contact={contact} onChanged={put} />
        </Tabs.Panel>
        <Tabs.Panel value="calendar" pt="md">
          <Suspense fallback={<Loader aria-label="Loading the calendar" />}>
            <ContactEventsPanel contact={contact} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="email" pt="md">
          <EmailPanel contact={contact} />
        </Tabs.Panel>
        <Tabs.Panel value="calls" pt="md">
          <CallsPanel number={n} />
        </Tabs.Panel>
        <Tabs.Panel value="timeline" pt="md">
          <Timeline contact={contact} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
