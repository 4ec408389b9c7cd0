import { useQuery } from '@tanstack/react-query';
import { callQuery } from '../../api/queries';

/** The pickers' data, cached for the session: lookups change rarely and every contact screen needs them. */
export function useLookups() {
  const opts = { staleTime: 5 * 60_000 };
  const statuses = useQuery({ ...callQuery('GET /v1/statuses'), ...opts });
  const agentflow = useQuery({ ...callQuery('GET /v1/agentflow_statuses'), ...opts });
  const sources = useQuery({ ...callQuery('GET /v1/sources'), ...opts });
  const groups = useQuery({ ...callQuery('GET /v1/groups'), ...opts });
  return {
    statuses: statuses.data?.data ?? [],
    agentflow: agentflow.data ?? { groups: [], ungrouped: [] },
    sources: sources.data?.data ?? [],
    groups: groups.data?.data ?? [],
  };
}

export const options = <T extends { id: number; name: string }>(rows: T[], empty = 'None') => [
  { value: '', label: empty },
  ...rows.map((r) => ({ value: String(r.id), label: r.name })),
];
