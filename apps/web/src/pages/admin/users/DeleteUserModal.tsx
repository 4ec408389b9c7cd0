/** Deleting a user always asks what happens to their contacts: transfer them to someone, or keep them unassigned. */

import type { AdminUser } from '@harbor/shared';
import { Alert, Button, Group, Modal, Radio, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../api/client';
import { deleteUser } from '../../../api/people';
import { callQuery, qkUnder } from '../../../api/queries';

export function DeleteUserModal({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  return (
    <Modal opened={Boolean(user)} onClose={onClose} title={user ? `Delete ${user.name}?` : ''}>
      {user && <DeleteForm user={user} onDone={onClose} />}
    </Modal>
  );
}

function DeleteForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const owners = useQuery(callQuery('GET /v1/admin/users/owners'));
  const [action, setAction] = useState<'transfer' | 'keep_unassigned' | ''>('');
  const [target, setTarget] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: () =>
      deleteUser(user.id, {
        contacts_action: action as 'transfer' | 'keep_unassigned',
        ...(action === 'transfer' && target && { transfer_to_user_id: Number(target) }),
      }),
    onSuccess: () => {
      queryClient.invalidateQueries(qkUnder('/v1/admin'));
      onDone();
    },
  });
  const ready = action === 'keep_unassigned' || (action === 'transfer' && target);
  return (
    <Stack>
      <Text size="sm">
        {user.name} will be signed out everywhere and their API keys stop working. People who report to them move up to
        their upline.
      </Text>
      <Radio.Group
        label="What happens to their contacts?"
        required
        value={action}
        onChange={(v) => setAction(v as typeof action)}
      >
        <Stack gap="xs" mt="xs">
          <Radio value="transfer" label="Transfer them to another user" />
          <Radio value="keep_unassigned" label="Keep them, unassigned" />
        </Stack>
      </Radio.Group>
      {action === 'transfer' && (
        <Select
          label="Transfer contacts to"
          searchable
          data={(owners.data?.data ?? [])
            .filter((o) => o.id !== user.id)
            .map((o) => ({ value: String(o.id), label: `${o.name} (${o.email})` }))}
          value={target}
          onChange={setTarget}
        />
      )}
      {remove.isError && (
        <Alert color="red" role="alert">
          {errorMessage(remove.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button color="red" disabled={!ready} loading={remove.isPending} onClick={() => remove.mutate()}>
          Delete user
        </Button>
      </Group>
    </Stack>
  );
}
