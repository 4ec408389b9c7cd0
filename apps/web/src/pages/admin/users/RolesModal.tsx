/** Role assignment: only the roles the signed-in user may hand out are offered (the server checks the same list). */

import type { AdminUser, Role } from '@harbor/shared';
import { Alert, Button, Checkbox, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../api/client';
import { updateUserRoles } from '../../../api/people';
import { callQuery, qkUnder } from '../../../api/queries';

export function RolesModal({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  return (
    <Modal opened={Boolean(user)} onClose={onClose} title={user ? `Roles of ${user.name}` : ''}>
      {user && <RolesForm user={user} onDone={onClose} />}
    </Modal>
  );
}

function RolesForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const roles = useQuery({
    ...callQuery('GET /v1/admin/users/{id}/roles', { params: { id: user.id } }),
  });
  const [chosen, setChosen] = useState<Role[] | null>(null);
  const save = useMutation({
    mutationFn: (next: Role[]) => updateUserRoles(user.id, next),
    onSuccess: () => {
      queryClient.invalidateQueries(qkUnder('/v1/admin/users'));
      onDone();
    },
  });
  if (roles.isPending) return <Loader aria-label="Loading roles" />;
  if (roles.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(roles.error)}
      </Alert>
    );
  const assignable = roles.data.assignable;
  const value = chosen ?? roles.data.roles.filter((r) => assignable.some((a) => a.value === r));
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Only roles you may assign are listed. Admin brings System Admin rights with it for sub-admins; pool holders are
        basic users.
      </Text>
      <Checkbox.Group value={value} onChange={(v) => setChosen(v as Role[])} label="Roles">
        <Stack gap="xs" mt="xs">
          {assignable.map((r) => (
            <Checkbox key={r.value} value={r.value} label={r.label} />
          ))}
        </Stack>
      </Checkbox.Group>
      {save.isError && (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={() => save.mutate(value)} loading={save.isPending} disabled={value.length === 0}>
          Save roles
        </Button>
      </Group>
    </Stack>
  );
}
