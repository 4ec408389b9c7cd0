/**
 * Bulk actions on the selection. Every action first shows how many contacts it will touch (the server counts the
 * selection, so "all matching" means the whole filtered set), then runs and reports what happened.
 */

import { type ContactListRow, can, featureGateOpen } from '@harbor/shared';
import { Alert, Button, Group, Menu, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import {
  destroyAll,
  exportContacts,
  restoreAll,
  transferGroup,
  updateGroup,
  updateTags,
} from '../../api/contacts-list';
import { callQuery, qkUnder } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { type PickedTag, TagPicker } from '../../components/TagPicker';
import { subjectOf } from '../../layout/nav';
import { EmailBroadcastDialog } from './EmailBroadcastDialog';
import { MergeDialog } from './MergeDialog';
import type { ContactsList } from './useContactsList';

// Only people who text open it: its own chunk keeps the contacts page within its budget.
const SmsBroadcastDialog = lazy(() => import('./SmsBroadcastDialog').then((m) => ({ default: m.SmsBroadcastDialog })));

type Action =
  | 'add_tags'
  | 'remove_tags'
  | 'group'
  | 'transfer'
  | 'delete'
  | 'restore'
  | 'csv'
  | 'xlsx'
  | 'merge'
  | 'email'
  | 'sms';
const TITLES: Record<Action, string> = {
  add_tags: 'Add tags',
  remove_tags: 'Remove tags',
  group: 'Change group',
  transfer: 'Transfer contacts',
  delete: 'Delete contacts',
  restore: 'Restore contacts',
  csv: 'Export CSV',
  xlsx: 'Export XLSX',
  merge: 'Merge duplicates',
  email: 'Send email',
  sms: 'Send text',
};

const _tagList = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => ({ name }));

function ActionForm(props: {
  action: Exclude<Action, 'merge' | 'email' | 'sms'>;
  list: ContactsList;
  onDone: () => void;
}) {
  const { action, list, onDone } = props;
  const qc = useQueryClient();
  const navigate = useNavigate();
  const sel = list.selection;
  const count = useQuery(callQuery('POST /v1/contacts/selected_items', { body: { ...sel, limit: 0 } }));
  const groups = useQuery({ ...callQuery('GET /v1/groups'), enabled: action === 'group' });
  const owners = useQuery({ ...callQuery('GET /v1/admin/users/owners'), enabled: action === 'transfer' });
  const pools = useQuery({ ...callQuery('GET /v1/pools'), enabled: action === 'transfer' });
  const [tags, setTags] = useState<PickedTag[]>([]);
  const [groupId, setGroupId] = useState('');
  const [target, setTarget] = useState('');

  const run = useMutation({
    mutationFn: async (): Promise<string> => {
      switch (action) {
        case 'add_tags':
        case 'remove_tags': {
          const names = tags.map((t) => ({ name: t.name }));
          const r = await updateTags(sel, names, action === 'add_tags' ? 'add' : 'remove');
          return `${r.count} contacts ${action === 'add_tags' ? 'tagged' : 'untagged'}.`;
        }
        case 'group':
          return `${(await updateGroup(sel, groupId ? Number(groupId) : null)).count} contacts moved.`;
        case 'transfer': {
          const [kind, id] = target.split(':');
          const a = await transferGroup(sel, kind === 'pool' ? { to_pool_id: Number(id) } : { to_user_id: Number(id) });
          navigate(`/contacts/transfers?attempt=${a.id}`);
          return `Transfer of ${a.total} contacts started.`;
        }
        case 'delete':
          return `${(await destroyAll(sel)).count} contacts deleted.`;
        case 'restore':
          return `${(await restoreAll(sel)).count} contacts restored.`;
        case 'csv':
        case 'xlsx':
          // The rows come in the order on screen.
          await exportContacts(sel, action, { order: list.state.order, order_field: list.state.orderField });
          return 'Export downloaded.';
      }
    },
    onSuccess: (message) => {
      notifications.show({ message, color: 'green' });
      list.clearSelection();
      void qc.invalidateQueries(qkUnder('/v1/contacts'));
      onDone();
    },
  });

  const n = count.data?.count;
  const needsTags = action === 'add_tags' || action === 'remove_tags';
  const ready = (!needsTags || tags.length > 0) && (action !== 'transfer' || target !== '');
  return (
    <Stack>
      <Text role="status">
        {n === undefined ? 'Counting the selection…' : `This will affect ${n.toLocaleString()} contacts.`}
      </Text>
      {(action === 'add_tags' || action === 'remove_tags') && (
        <TagPicker
          label="Tags"
          description={action === 'add_tags' ? 'Pick tags, or type a new name to create it' : undefined}
          creatable={action === 'add_tags'}
          value={tags.map((t) => t.id)}
          onChange={(_, picked) => setTags(picked)}
          data-autofocus
        />
      )}
      {action === 'group' && (
        <NativeSelect
          label="Group"
          value={groupId}
          onChange={(e) => setGroupId(e.currentTarget.value)}
          data={[
            { value: '', label: 'No group' },
            ...(groups.data?.data ?? []).map((g) => ({ value: String(g.id), label: g.name })),
          ]}
        />
      )}
      {action === 'transfer' && (
        <NativeSelect
          label="Transfer to"
          value={target}
          onChange={(e) => setTarget(e.currentTarget.value)}
          data={[
            { value: '', label: 'Choose an agent or a pool' },
            ...(owners.data?.data ?? []).map((o) => ({ value: `user:${o.id}`, label: o.name })),
            ...(pools.data?.data ?? []).map((p) => ({ value: `pool:${p.id}`, label: `Pool: ${p.name}` })),
          ]}
        />
      )}
      {run.isError && (
        <Alert color="red" role="alert">
          {run.error instanceof Error && !('status' in run.error) ? run.error.message : errorMessage(run.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button
          color={action === 'delete' ? 'red' : undefined}
          onClick={() => run.mutate()}
          loading={run.isPending}
          disabled={!ready || n === undefined || n === 0}
        >
          {TITLES[action]}
        </Button>
      </Group>
    </Stack>
  );
}

export function BulkActions({ list }: { list: ContactsList }) {
  const qc = useQueryClient();
  const [action, setAction] = useState<Action | null>(null);
  const subject = subjectOf(useCurrentUser());
  const transfer = can(subject, 'contacts.transfer');
  const texting = can(subject, 'sms.use') && featureGateOpen(subject, 'sms_feature');
  const deleted = list.state.group === 'deleted';
  // A merge shows every contact it touches, so all of them must be on the page in view.
  const onPage = new Set((list.query.data?.data ?? []).map((r) => r.id));
  const mergeable = !list.allMatching && list.selected.size >= 2 && [...list.selected].every((id) => onPage.has(id));
  const item = (a: Action, disabled = false) => (
    <Menu.Item onClick={() => setAction(a)} disabled={disabled}>
      {TITLES[a]}
    </Menu.Item>
  );
  return (
    <>
      <Menu>
        <Menu.Target>
          <Button rightSection={<IconChevronDown size={16} />} disabled={!list.hasSelection}>
            Bulk actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {deleted ? (
            item('restore')
          ) : (
            <>
              {item('email')}
              {texting && item('sms')}
              <Menu.Divider />
              {item('add_tags')}
              {item('remove_tags')}
              {item('group')}
              {transfer && item('transfer')}
              {item('merge', !mergeable)}
              {item('delete')}
            </>
          )}
          <Menu.Divider />
          {item('csv')}
          {item('xlsx')}
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={action !== null}
        onClose={() => setAction(null)}
        title={action ? TITLES[action] : ''}
        size={action === 'merge' ? 'auto' : 'md'}
      >
        {action === 'merge' ? (
          <MergeDialog
            contacts={(list.query.data?.data ?? []).filter((r: ContactListRow) => list.selected.has(r.id))}
            onCancel={() => setAction(null)}
            onDone={(message) => {
              notifications.show({ message, color: 'green' });
              list.clearSelection();
              void qc.invalidateQueries(qkUnder('/v1/contacts'));
              setAction(null);
            }}
          />
        ) : action === 'email' ? (
          <EmailBroadcastDialog selection={list.selection} onDone={() => setAction(null)} />
        ) : action === 'sms' ? (
          <Suspense fallback={null}>
            <SmsBroadcastDialog selection={list.selection} onDone={() => setAction(null)} />
          </Suspense>
        ) : (
          action && <ActionForm action={action} list={list} onDone={() => setAction(null)} />
        )}
      </Modal>
    </>
  );
}
