/** The contact fields form, shared by "New contact" and the detail page's Edit tab. Sends only changed fields. */
import { type ContactFields, formatPhone, GENDERS, LANGUAGES, US_STATES } from '@harbor/shared';
import { Alert, Button, Group, NativeSelect, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import type { Contact } from '../../api/contacts';
import { useCurrentUser } from '../../auth/session';
import { mayPickOwners, OwnerSelect } from '../../components/pickers';
import { TagPicker } from '../../components/TagPicker';
import { DuplicateWarning } from './DuplicateWarning';
import { options, useLookups } from './useLookups';

type Values = Record<string, string>;
const TEXT = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'secondary_phone',
  'address',
  'address2',
  'city',
  'zip',
  'county',
  'medicare_number',
  'category',
  'date_of_birth',
  'part_a_effective',
  'part_b_effective',
] as const;
const CHOICE = ['gender', 'language', 'state', 'type'] as const;
const REFS = ['status_id', 'agentflow_status_id', 'source_id', 'group_id'] as const;

function initial(c: Contact | null): Values {
  const v: Values = {};
  for (const k of TEXT) v[k] = (c?.[k] as string | null) ?? '';
  for (const k of CHOICE) v[k] = (c?.[k] as string | null) ?? (k === 'type' ? 'lead' : '');
  v.status_id = c?.status ? String(c.status.id) : '';
  v.agentflow_status_id = c?.agentflow_status ? String(c.agentflow_status.id) : '';
  v.source_id = c?.source ? String(c.source.id) : '';
  v.group_id = c?.group ? String(c.group.id) : '';
  v.owner_id = c?.owner ? String(c.owner.id) : '';
  return v;
}

/** Form values -> body: empty strings become null, ids numbers; only what differs from the start is sent. */
export function toBody(values: Values, start: Values, tagIds: number[] | null): ContactFields {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === start[k]) continue;
    // No owner picked means "me" on create; an owner cannot be cleared, only changed.
    if (k === 'owner_id') {
      if (v) body[k] = Number(v);
    } else if ((REFS as readonly string[]).includes(k)) body[k] = v ? Number(v) : null;
    else if (k === 'first_name' || k === 'last_name') body[k] = v;
    else body[k] = v === '' ? null : v;
  }
  if (tagIds) body.tag_ids = tagIds;
  return body as ContactFields;
}

export function ContactForm(props: {
  contact: Contact | null;
  submitLabel: string;
  onSubmit: (b: ContactFields) => Promise<unknown>;
  /** New contacts: warn while typing when the phone or email is already in the book. */
  checkDuplicates?: boolean;
}) {
  const lookups = useLookups();
  const user = useCurrentUser();
  const [start] = useState(() => initial(props.contact));
  const [values, setValues] = useState<Values>(start);
  const [tagIds, setTagIds] = useState<number[]>(props.contact?.tags.map((t) => t.id) ?? []);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: string) => (e: { currentTarget: { value: string } }) =>
    setValues({ ...values, [k]: e.currentTarget.value });
  const err = (k: string) => errors[k]?.[0];
  const text = (k: string, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput label={label} value={values[k]} onChange={set(k)} error={err(k)} {...extra} />
  );
  const select = (k: string, label: string, data: Array<{ value: string; label: string }>) => (
    <NativeSelect label={label} value={values[k]} onChange={set(k)} error={err(k)} data={data} />
  );
  const initialTags =
    props.contact?.tags
      .map((t) => t.id)
      .sort()
      .join() ?? '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      const tagsChanged = [...tagIds].sort().join() !== initialTags;
      await props.onSubmit(toBody(values, props.contact ? start : {}, tagsChanged ? tagIds : null));
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.errors);
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label="Contact details">
      <Stack>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Title order={4}>Person</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {text('first_name', 'First name')}
          {text('last_name', 'Last name')}
          {select('type', 'Type', [
            { value: 'lead', label: 'Lead' },
            { value: 'client', label: 'Client' },
          ])}
          {text('date_of_birth', 'Date of birth', { type: 'date' })}
          {select('gender', 'Gender', [
            { value: '', label: 'Not set' },
            ...GENDERS.map((g) => ({ value: g.value, label: g.label })),
          ])}
          {select('language', 'Language', [
            { value: '', label: 'Not set' },
            ...LANGUAGES.map((l) => ({ value: l, label: l[0].toUpperCase() + l.slice(1) })),
          ])}
        </SimpleGrid>
        <Title order={4}>Reach</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {text('phone', 'Phone', {
            placeholder: '1-xxx-xxx-xxxx',
            onBlur: () => values.phone && setValues({ ...values, phone: formatPhone(values.phone) }),
          })}
          {text('secondary_phone', 'Secondary phone', {
            onBlur: () =>
              values.secondary_phone && setValues({ ...values, secondary_phone: formatPhone(values.secondary_phone) }),
          })}
          {text('email', 'Email', { type: 'email' })}
          {text('address', 'Address')}
          {text('address2', 'Address line 2')}
          {text('city', 'City')}
          {select('state', 'State', [
            { value: '', label: 'Not set' },
            ...US_STATES.map((s) => ({ value: s, label: s })),
          ])}
          {text('zip', 'ZIP')}
          {text('county', 'County')}
        </SimpleGrid>
        <Title order={4}>Medicare</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {text('medicare_number', 'Medicare number')}
          {text('part_a_effective', 'Part A effective', { type: 'date' })}
          {text('part_b_effective', 'Part B effective', { type: 'date' })}
        </SimpleGrid>
        <Title order={4}>Pipeline</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {select('status_id', 'Status', options(lookups.statuses))}
          {select('agentflow_status_id', 'Agent-flow status', [
            { value: '', label: 'None' },
            ...lookups.agentflow.groups.flatMap((g) =>
              g.statuses.map((s) => ({ value: String(s.id), label: `${g.name}: ${s.name}` })),
            ),
            ...lookups.agentflow.ungrouped.map((s) => ({ value: String(s.id), label: s.name })),
          ])}
          {select('source_id', 'Source', options(lookups.sources))}
          {select('group_id', 'Group', options(lookups.groups))}
          {text('category', 'Category')}
          {mayPickOwners(user) && (
            <OwnerSelect
              label="Owner"
              placeholder={props.contact ? undefined : 'You'}
              clearable={!props.contact}
              current={props.contact?.owner}
              value={values.owner_id ? Number(values.owner_id) : null}
              onChange={(id) => setValues({ ...values, owner_id: id ? String(id) : '' })}
              error={err('owner_id')}
            />
          )}
        </SimpleGrid>
        <TagPicker
          label="Tags"
          description="Pick tags, or type a new name to create it"
          creatable
          value={tagIds}
          known={props.contact?.tags ?? []}
          onChange={(ids) => setTagIds(ids)}
          maw={640}
        />
        {err('tag_ids') && <Alert color="red">{err('tag_ids')}</Alert>}
        {props.checkDuplicates && <DuplicateWarning phone={values.phone ?? ''} email={values.email ?? ''} />}
        <Group>
          <Button type="submit" loading={busy}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
