/**
 * /admin/campaign-triggers: every field of a campaign trigger (spec document 2 §3) in one form, with its file; the
 * list says what each sends, when it runs and where agents see it.
 */

import {
  type CampaignTrigger,
  TRIGGER_CATEGORIES,
  TRIGGER_EVENT_LABELS,
  TRIGGER_EVENTS,
  TRIGGER_FILE_TYPES,
} from '@harbor/shared';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  FileInput,
  Group,
  Loader,
  Modal,
  MultiSelect,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../api/client';
import { triggersAdminApi } from '../../../api/email';
import { callQuery, qk } from '../../../api/queries';
import { PageHeading } from '../../../components/PageHeading';
import { label } from '../../contacts/format';

const FLAGS = [
  ['enabled', 'Enabled'],
  ['compliant', 'Reviewed as compliant (agents only see compliant triggers)'],
  ['global', 'Offered to everyone in the company'],
  ['auto_trigger', 'Runs by itself on its date'],
  ['show_on_bulk', 'Shown in the contacts bulk menu'],
  ['show_on_conversation', 'Shown in text conversations'],
  ['show_on_event', 'Shown on calendar events'],
] as const;
type Flag = (typeof FLAGS)[number][0];

interface Form {
  name: string;
  description: string;
  tags: string;
  body: string;
  trigger_type: 'email' | 'sms';
  category: string;
  trigger: string;
  recurrence: 'none' | 'yearly';
  all_email_ids: string[];
  all_sms_trigger_ids: string[];
  flags: Record<Flag, boolean>;
  file: File | null;
  remove_file: boolean;
}

const fromTrigger = (t: CampaignTrigger | null): Form => ({
  name: t?.name ?? '',
  description: t?.description ?? '',
  tags: (t?.tags ?? []).join(', '),
  body: t?.body ?? '',
  trigger_type: t?.trigger_type ?? 'email',
  category: t?.category ?? 'other',
  trigger: t?.trigger ?? 'manual',
  recurrence: t?.recurrence ?? 'none',
  all_email_ids: (t?.all_email_ids ?? []).map(String),
  all_sms_trigger_ids: (t?.all_sms_trigger_ids ?? []).map(String),
  flags: Object.fromEntries(
    FLAGS.map(([k]) => [k, t ? t[k] : k === 'enabled' || k === 'global' || k === 'show_on_bulk']),
  ) as Record<Flag, boolean>,
  file: null,
  remove_file: false,
});

function toFormData(f: Form) {
  const fd = new FormData();
  for (const k of ['name', 'description', 'body', 'trigger_type', 'category', 'trigger', 'recurrence'] as const)
    fd.set(k, f[k]);
  fd.set(
    'tags',
    JSON.stringify(
      f.tags
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  );
  fd.set('all_email_ids', JSON.stringify(f.all_email_ids.map(Number)));
  fd.set('all_sms_trigger_ids', JSON.stringify(f.trigger_type === 'email' ? f.all_sms_trigger_ids.map(Number) : []));
  for (const [k] of FLAGS) fd.set(k, String(f.flags[k]));
  if (f.remove_file) fd.set('remove_file', 'true');
  if (f.file) fd.set('file', f.file);
  return fd;
}

function TriggerForm({ trigger, onDone }: { trigger: CampaignTrigger | null; onDone: () => void }) {
  const qc = useQueryClient();
  const [f, setF] = useState<Form>(() => fromTrigger(trigger));
  const set = (p: Partial<Form>) => setF((x) => ({ ...x, ...p }));
  const emails = useQuery(callQuery('GET /v1/admin/emails', { query: { page: 1, limit: 50 } }));
  const triggers = useQuery(callQuery('GET /v1/admin/campaign_triggers', { query: { limit: 100 } }));
  const save = useMutation({
    mutationFn: () =>
      trigger ? triggersAdminApi.update(trigger.id, toFormData(f)) : triggersAdminApi.create(toFormData(f)),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: qk('GET /v1/admin/campaign_triggers') });
      onDone();
    },
  });
  const smsTriggers = (triggers.data?.data ?? []).filter((t) => t.trigger_type === 'sms' && t.id !== trigger?.id);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        <TextInput label="Name" required value={f.name} onChange={(e) => set({ name: e.currentTarget.value })} />
        <Textarea
          label="Description"
          value={f.description}
          onChange={(e) => set({ description: e.currentTarget.value })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label="Sends"
            value={f.trigger_type}
            onChange={(e) => set({ trigger_type: e.currentTarget.value as Form['trigger_type'] })}
            data={[
              { value: 'email', label: 'Email' },
              { value: 'sms', label: 'Text message' },
            ]}
          />
          <NativeSelect
            label="Category"
            value={f.category}
            onChange={(e) => set({ category: e.currentTarget.value })}
            data={TRIGGER_CATEGORIES.map((c) => ({ value: c, label: label(c) }))}
          />
          <NativeSelect
            label="When"
            value={f.trigger}
            onChange={(e) => set({ trigger: e.currentTarget.value })}
            data={TRIGGER_EVENTS.map((t) => ({ value: t, label: TRIGGER_EVENT_LABELS[t] }))}
          />
          <NativeSelect
            label="Repeats"
            value={f.recurrence}
            onChange={(e) => set({ recurrence: e.currentTarget.value as Form['recurrence'] })}
            data={[
              { value: 'none', label: 'Does not repeat' },
              { value: 'yearly', label: 'Every year' },
            ]}
          />
        </SimpleGrid>
        {f.trigger_type === 'email' ? (
          <>
            <MultiSelect
              label="Emails it sends"
              description="The first active one is sent unless the agent picks another."
              data={(emails.data?.data ?? []).map((e) => ({ value: String(e.id), label: e.name }))}
              value={f.all_email_ids}
              onChange={(v) => set({ all_email_ids: v })}
              searchable
            />
            <MultiSelect
              label="Text triggers sent with it"
              data={smsTriggers.map((t) => ({ value: String(t.id), label: t.name }))}
              value={f.all_sms_trigger_ids}
              onChange={(v) => set({ all_sms_trigger_ids: v })}
            />
          </>
        ) : (
          <Textarea
            label="Text it sends"
            description="Merge fields such as {{first_name}} work here."
            value={f.body}
            onChange={(e) => set({ body: e.currentTarget.value })}
            maxLength={1600}
          />
        )}
        <TextInput
          label="Tags"
          description="Comma separated"
          value={f.tags}
          onChange={(e) => set({ tags: e.currentTarget.value })}
        />
        <Stack gap={6}>
          {FLAGS.map(([k, text]) => (
            <Checkbox
              key={k}
              label={text}
              checked={f.flags[k]}
              onChange={(e) => set({ flags: { ...f.flags, [k]: e.currentTarget.checked } })}
            />
          ))}
        </Stack>
        <FileInput
          label="File"
          description={`${TRIGGER_FILE_TYPES.join(', ')}; at most 5 MB`}
          accept=".pdf,.png,.jpg,.jpeg,.gif"
          value={f.file}
          onChange={(file) => set({ file })}
          clearable
        />
        {trigger?.file && !f.file && (
          <Checkbox
            label={`Remove the file ${trigger.file.name}`}
            checked={f.remove_file}
            onChange={(e) => set({ remove_file: e.currentTarget.checked })}
          />
        )}
        {save.error && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save trigger
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function CampaignTriggersPage() {
  const list = useQuery(callQuery('GET /v1/admin/campaign_triggers', { query: { limit: 100 } }));
  const [editing, setEditing] = useState<CampaignTrigger | 'new' | null>(null);
  const rows = list.data?.data ?? [];
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <PageHeading title="Campaign triggers" section="Admin">
          Campaign triggers
        </PageHeading>
        <Button onClick={() => setEditing('new')}>New trigger</Button>
      </Group>
      {list.isPending && <Loader aria-label="Loading triggers" />}
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.isSuccess && !rows.length && (
        <Text>No campaign triggers yet. A birthday note that goes out by itself is a good first one.</Text>
      )}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={640} tabIndex={0} aria-label="Campaign triggers">
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Sends</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>
                    <Button variant="subtle" size="compact-sm" onClick={() => setEditing(t)}>
                      {t.name}
                    </Button>
                  </Table.Td>
                  <Table.Td>
                    {t.trigger_type === 'email' ? t.emails.map((e) => e.name).join(', ') || 'Email' : 'Text message'}
                  </Table.Td>
                  <Table.Td>
                    {TRIGGER_EVENT_LABELS[t.trigger]}
                    {t.recurrence === 'yearly' ? ', every year' : ''}
                    {t.auto_trigger ? ' (automatic)' : ''}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Badge color={t.enabled ? 'green' : 'gray'} variant="light">
                        {t.enabled ? 'Enabled' : 'Disabled'}
                      </Badge>
                      {!t.compliant && (
                        <Badge color="yellow" variant="light">
                          Not reviewed
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New campaign trigger' : 'Edit campaign trigger'}
        size="lg"
      >
        {editing !== null && (
          <TriggerForm trigger={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Stack>
  );
}
