/**
 * The one query-key scheme: the contract key, then the inputs. `qk('GET /v1/contacts/{id}', { params: { id } })`
 * invalidates every query of that contact whatever its query string (TanStack matches keys by prefix and objects by
 * their subset); `callQuery` gives `useQuery` the key and the fetch together, so they cannot disagree.
 */
import { partialMatchKey, type Query, type QueryFunctionContext } from '@tanstack/react-query';
import { type CallArgs, type ContractKey, call, type InputOf } from './call';

/** Inputs as they go into a key: parameters as strings (a URL gives "42" where a row gives 42), no empty fields. */
function keyPart(input: object | undefined): Record<string, unknown> | undefined {
  if (!input) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    if (name === 'params') {
      out.params = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, String(v)]));
    } else if (name === 'query' || name === 'body') {
      const fields = Object.entries(value as object).filter(([, v]) => v !== undefined);
      if (fields.length) out[name] = Object.fromEntries(fields);
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The query key of a call. Give fewer inputs for a prefix: `qk('GET /v1/events')` matches every events query.
 * (The input type is partial on purpose: a prefix names only what it must.)
 */
export function qk<K extends ContractKey>(key: K, input?: Partial<InputOf<K>>): readonly [K] | readonly [K, object] {
  const part = keyPart(input as object | undefined);
  return part ? ([key, part] as const) : ([key] as const);
}

/**
 * Query options for `useQuery`: the key from `qk` and a fetch through `call` that TanStack can cancel.
 * `useQuery(callQuery('GET /v1/wallets'))`.
 */
export function callQuery<K extends ContractKey>(key: K, ...[input]: CallArgs<K>) {
  return {
    queryKey: qk(key, input as Partial<InputOf<K>> | undefined),
    queryFn: ({ signal }: QueryFunctionContext) =>
      call(key, ...([{ ...(input ?? {}), signal }] as unknown as CallArgs<K>)),
  };
}

/**
 * Filters for `invalidateQueries` and friends: every query (of any method) whose path is `path` or lies below it,
 * with these inputs. `qkUnder('/v1/contacts/{id}', { params: { id } })` is the contact, its notes, files, policies...
 */
export function qkUnder(path: `/v1/${string}`, input?: { params?: Record<string, string | number> }) {
  const part = keyPart(input);
  return {
    predicate: (query: Query) => {
      const [key, inputs] = query.queryKey as [unknown, object?];
      if (typeof key !== 'string') return false;
      const own = key.slice(key.indexOf(' ') + 1);
      if (own !== path && !own.startsWith(`${path}/`)) return false;
      return !part || (!!inputs && partialMatchKey([inputs], [part]));
    },
  };
}
