/** The admin lookup screens: statuses, sources, carriers, agent-flow statuses (with their groups). */

import { Alert, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../api/client';
import { type AgentflowTree, adminLookupsApi, invalidateLookups } from '../../../api/contacts';
import { callQuery, qk } from '../../../api/queries';
import { colorOptions, LookupAdminPage } from './LookupAdminPage';

export const StatusesAdminPage = () => (
  <LookupAdminPage
    path="statuses"
    title="Statuses"
    singular="status"
    extra={[{ key: 'color', label: 'Color', options: colorOptions }]}
  />
);
export const SourcesAdminPage = () => <LookupAdminPage path="sources" title="Sources" singular="source" />;
export const CarriersAdminPage = () => (
  <LookupAdminPage path="carriers" title="Carriers" singular="carrier" extra={[{ key: 'naic', label: 'NAIC' }]} />
);

/** The group list, edited as a whole and saved in one PATCH (left-out groups are deleted, statuses ungrouped). */
function AgentflowGroups({ tree }: { tree: AgentflowTree }) {
  const qc = useQueryClient();
  const [groups, setGroups] = useState<Array<{ id?: number; name: string }>>(
    tree.groups.map((g) => ({ id: g.id, name: g.name })),
  );
  const save = useMutation({
    mutationFn: () => adminLookupsApi.saveAgentflowGroups(groups.filter((g) => g.name.trim())),
    onSuccess: () =>
      void invalidateLookups(qc).then(() => qc.invalidateQueries({ queryKey: qk('GET /v1/admin/agentflow_statuses') })),
  });
  return (
    <Stack gap="xs">
      <Title order={4}>Groups</Title>
      {groups.map((g, i) => (
        <Group key={g.id ?? `new-${i}`} align="end">
          <TextInput
            label={`Group ${i + 1}`}
            value={g.name}
            onChange={(e) => setGroups(groups.map((x, j) => (j === i ? { ...x, name: e.currentTarget.value } : x)))}
          />
          <Button
            variant="subtle"
            color="red"
            onClick={() => setGroups(groups.filter((_, j) => j !== i))}
            aria-label={`Remove group ${i + 1}`}
          >
            Remove
          </Button>
        </Group>
      ))}
      <Group>
        <Button variant="default" onClick={() => setGroups([...groups, { name: '' }])}>
          Add group
        </Button>
        <Button onClick={() => save.mutate()} loading={save.isPending}>
          Save groups
        </Button>
      </Group>
      {save.error && <Alert color="red">{errorMessage(save.error)}</Alert>}
    </Stack>
  );
}

export function AgentflowAdminPage() {
  const tree = useQuery(callQuery('GET /v1/agentflow_statuses'));
  const groupOptions = [
    { value: '', label: 'No group' },
    ...(tree.data?.groups ?? []).map((g) => ({ value: String(g.id), label: g.name })),
  ];
  return (
    <LookupAdminPage
      path="agentflow_statuses"
      title="Agent-flow statuses"
      singular="agent-flow status"
      extra={[{ key: 'group_id', label: 'Group', options: groupOptions }]}
    >
      {tree.data && <AgentflowGroups key={tree.data.groups.map((g) => `${g.id}${g.name}`).join()} tree={tree.data} />}
    </LookupAdminPage>
  );
}
