import { useQuery } from '@tanstack/react-query';
import { lookupsApi } from '../../api/contacts';

/** The pickers' data, cached for the session: lookups change rarely and every contact screen needs them. */
export function useLookups() {
  const opts = { staleTime: 5 * 60_000 };
  const statuses = useQuery({ queryKey: ['lookups', 'statuses'], queryFn: lookupsApi.statuses, ...opts });
  const agentflow = useQuery({ queryKey: ['lookups', 'agentflow'], queryFn: lookupsApi.agentflow, ...opts });
  const sources = useQuery({ queryKey: ['lookups', 'sources'], queryFn: lookupsApi.sources, ...opts });
  const groups = useQuery({ queryKey: ['lookups', 'groups'], queryFn: lookupsApi.groups, ...opts });
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
