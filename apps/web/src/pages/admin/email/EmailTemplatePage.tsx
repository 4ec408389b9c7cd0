/**
 * /admin/email-management/new and /admin/email-management/:id: write a template with the rich-text editor, insert
 * merge fields, preview it with a contact's data (or samples) as the server will send it, and save. A template the
 * assistant generated waits in session storage (`ai_generated_email`): read once, then removed (spec §3).
 */

import { AI_GENERATED_EMAIL_KEY, EMAIL_CATEGORIES, EMAIL_MERGE_FIELDS } from '@harbor/shared';
import {
  Alert,
  Button,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../../api/client';
import { emailAdminApi, type TemplateInput } from '../../../api/email';
import { callQuery, qk } from '../../../api/queries';
import { ContactPicker } from '../../../components/ContactPicker';
import { PageHeading } from '../../../components/PageHeading';
import { label } from '../../contacts/format';

const RichTextField = lazy(() => import('./RichTextField'));

/** The assistant's template, read once and removed; a broken or missing one is nothing (spec §8 logs the failure). */
function takeGenerated(): Partial<TemplateInput> | null {
  try {
    const raw = sessionStorage.getItem(AI_GENERATED_EMAIL_KEY);
    if (!raw) return null;
    sessionStorage.removeItem(AI_GENERATED_EMAIL_KEY);
    const v = JSON.parse(raw) as Record<string, unknown>;
    return {
      name: typeof v.name === 'string' ? v.name : undefined,
      subject: typeof v.subject === 'string' ? v.subject : undefined,
      body_html: typeof v.body_html === 'string' ? v.body_html : typeof v.body === 'string' ? v.body : undefined,
    };
  } catch {
    console.info('Failed to retrieve email template');
    return null;
  }
}

const EMPTY: TemplateInput = { name: '', subject: '', body_html: '<p></p>', category: 'other', active: true };

function Editor({
  initial,
  id,
  generated,
  justCreated,
}: {
  initial: TemplateInput;
  id: number | null;
  generated: boolean;
  /** Opened right after this template was created on /new: the save's confirmation carries over. */
  justCreated: boolean;
}) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [t, setT] = useState<TemplateInput>(initial);
  const [insert, setInsert] = useState<string | null>(null);
  const [contactId, setContactId] = useState<number | null>(null);
  const set = (patch: Partial<TemplateInput>) => setT((x) => ({ ...x, ...patch }));
  const onInserted = useCallback(() => setInsert(null), []);
  const preview = useMutation({
    mutationFn: () =>
      emailAdminApi.preview({ subject: t.subject, body_html: t.body_html ?? '', contact_id: contactId ?? undefined }),
  });
  const save = useMutation({
    mutationFn: () => (id ? emailAdminApi.update(id, t) : emailAdminApi.create(t)),
    onSuccess: (saved) => {
      void qc.invalidateQueries({ queryKey: qk('GET /v1/admin/emails') });
      // The editor of the new address is a new one (keyed by id): it is told the save went through, or "Saved."
      // vanished with the old one before anyone could read it.
      if (!id) navigate(`/admin/email-management/${saved.id}`, { replace: true, state: { saved: true } });
      else setT({ ...t, body_html: saved.body_html });
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        {generated && (
          <Alert color="blue" role="status">
            MAX drafted this template. Read it through before you save it.
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Name" required value={t.name} onChange={(e) => set({ name: e.currentTarget.value })} />
          <NativeSelect
            label="Category"
            value={t.category}
            onChange={(e) => set({ category: e.currentTarget.value as TemplateInput['category'] })}
            data={EMAIL_CATEGORIES.map((c) => ({ value: c, label: label(c) }))}
          />
        </SimpleGrid>
        <TextInput
          label="Subject"
          required
          value={t.subject}
          onChange={(e) => set({ subject: e.currentTarget.value })}
        />
        <Group gap={6} wrap="wrap" aria-label="Insert a merge field">
          <Text size="sm">Insert:</Text>
          {EMAIL_MERGE_FIELDS.map((f) => (
            <Button key={f.key} size="compact-xs" variant="light" onClick={() => setInsert(`{{${f.key}}}`)}>
              {f.label}
            </Button>
          ))}
        </Group>
        <Suspense fallback={<Loader aria-label="Loading the editor" />}>
          <RichTextField
            label="Message"
            value={t.body_html ?? ''}
            onChange={(html) => set({ body_html: html })}
            insert={insert}
            onInserted={onInserted}
          />
        </Suspense>
        <Switch
          label="Active (agents can send it)"
          checked={t.active ?? true}
          onChange={(e) => set({ active: e.currentTarget.checked })}
        />
        {save.error && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        {(save.isSuccess || (justCreated && save.isIdle)) && (
          <Alert color="green" role="status">
            Saved.
          </Alert>
        )}
        <Group justify="space-between" wrap="wrap">
          <Group wrap="wrap" align="end">
            <ContactPicker
              label="Preview with contact"
              value={contactId}
              onChange={(c) => setContactId(c?.id ?? null)}
            />
            <Button variant="default" onClick={() => preview.mutate()} loading={preview.isPending}>
              Preview
            </Button>
          </Group>
          <Group>
            <Button variant="default" onClick={() => navigate('/admin/email-management')}>
              Back
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save template
            </Button>
          </Group>
        </Group>
        {preview.error && (
          <Alert color="red" role="alert">
            {errorMessage(preview.error)}
          </Alert>
        )}
        {preview.data && (
          <Paper withBorder p="md" aria-label="Preview">
            <Title order={2} size="h5">
              {preview.data.subject}
            </Title>
            {preview.data.unknown_fields.length > 0 && (
              <Alert color="yellow" role="status" my="xs">
                {preview.data.unknown_fields.join('; ')}
              </Alert>
            )}
            {/* The server's sanitised HTML, as the email will carry it. */}
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server (sanitize-html allowlist) */}
            <div style={{ overflowWrap: 'anywhere' }} dangerouslySetInnerHTML={{ __html: preview.data.html }} />
          </Paper>
        )}
      </Stack>
    </form>
  );
}

export function EmailTemplatePage() {
  const { id } = useParams();
  const location = useLocation();
  const justCreated = Boolean((location.state as { saved?: boolean } | null)?.saved);
  const numeric = id && /^\d+$/.test(id) ? Number(id) : null;
  const existing = useQuery({
    ...callQuery('GET /v1/admin/emails/{id}', { params: { id: numeric ?? '' } }),
    enabled: numeric !== null,
  });
  const [generated] = useState(() => (numeric ? null : takeGenerated()));
  const title = numeric ? 'Edit email template' : 'New email template';
  return (
    <Stack>
      <PageHeading title={title} section="Admin">
        {title}
      </PageHeading>
      {numeric && existing.isPending && <Loader aria-label="Loading the template" />}
      {existing.isError && (
        <Alert color="red" role="alert">
          {errorMessage(existing.error, 'This template could not be loaded.')}
        </Alert>
      )}
      {(!numeric || existing.data) && (
        <Editor
          key={numeric ?? 'new'}
          id={numeric}
          generated={Boolean(generated)}
          justCreated={justCreated}
          initial={existing.data ? { ...existing.data } : { ...EMPTY, ...(generated ?? {}) }}
        />
      )}
    </Stack>
  );
}
