/** Quick update: change one field of a user without opening the whole form. */

import { type AdminUser, TIME_ZONE_LABELS, TIME_ZONES } from '@harbor/shared';
import { Alert, Button, Group, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../api/client';
import { quickUpdateUser } from '../../../api/people';
import { qkUnder } from '../../../api/queries';

const FIELDS = [
  { value: 'first_name', label: 'First name' },
  { value: 'last_name', label: 'Last name' },
  { value: 'email', label: 'Email' },
  { value: 'timezone', label: 'Time zone' },
] as const;
type Field = (typeof FIELDS)[number]['value'];

export function QuickUpdateModal({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  return (
    <Modal opened={Boolean(user)} onClose={onClose} title={user ? `Quick update: ${user.name}` : ''}>
      {user && <QuickForm user={user} onDone={onClose} />}
    </Modal>
  );
}

function QuickForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [field, setField] = useState<Field>('first_name');
  const [value, setValue] = useState<string>(user.first_name);
  const save = useMutation({
    mutationFn: () => quickUpdateUser(user.id, { [field]: value }),
    onSuccess: () => {
      queryClient.invalidateQueries(qkUnder('/v1/admin/users'));
      onDone();
    },
  });
  return (
    <Stack>
      <NativeSelect
        label="Field"
        data={FIELDS.map((f) => ({ value: f.value, label: f.label }))}
        value={field}
        onChange={(e) => {
          const f = e.currentTarget.value as Field;
          setField(f);
          setValue(String(user[f] ?? ''));
        }}
      />
      {field === 'timezone' ? (
        <NativeSelect
          label="Value"
          data={TIME_ZONES.map((z) => ({ value: z, label: TIME_ZONE_LABELS[z] }))}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
        />
      ) : (
        <TextInput label="Value" value={value} onChange={(e) => setValue(e.currentTarget.value)} />
      )}
      {save.isError && (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={() => save.mutate()} loading={save.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
