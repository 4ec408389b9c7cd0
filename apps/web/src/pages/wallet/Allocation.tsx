/**
 * Managers and admins: allocate money to the people they manage, or reclaim it. Admins draw from (and return to)
 * the company wallet, managers from their own. Each action is one ledger movement: all the people picked, or none.
 */

import { formatUsd, parseUsd, WALLET_LIMITS, type WalletState } from '@harbor/shared';
import { Alert, Button, Group, MultiSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery, qkUnder } from '../../api/queries';
import { allocate, newIdempotencyKey, reclaim } from '../../api/wallet';

export function Allocation({ wallet }: { wallet: WalletState }) {
  const qc = useQueryClient();
  const members = useQuery(callQuery('GET /v1/wallets/members'));
  const [picked, setPicked] = useState<string[]>([]);
  const [amount, setAmount] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const key = useRef<string | null>(null);
  const changed = () => {
    key.current = null;
    setMessage(null);
    give.reset();
    take.reset();
  };
  const byId = new Map((members.data?.members ?? []).map((m) => [String(m.id), m]));
  const cents = amount.trim() === '' ? undefined : parseUsd(amount);
  const badAmount = cents === null || (cents !== undefined && (cents < 1 || cents > WALLET_LIMITS.allocateMax));
  const done = (verb: string) => (r: { moved: Array<{ amount: number }>; funding_balance: number }) => {
    key.current = null;
    const total = r.moved.reduce((s, m) => s + m.amount, 0);
    setMessage(
      `${verb} ${formatUsd(total)} (${r.moved.length} ${r.moved.length === 1 ? 'person' : 'people'}). ${
        wallet.company_balance !== null ? 'Company wallet' : 'Your wallet'
      } now holds ${formatUsd(r.funding_balance)}.`,
    );
    void qc.invalidateQueries(qkUnder('/v1/wallets'));
  };
  const ids = picked.map(Number);
  /** The key of what the person is doing now: the same until they change the people or the amount. */
  const currentKey = () => {
    key.current ??= newIdempotencyKey();
    return key.current;
  };
  const give = useMutation({
    mutationFn: () => allocate({ user_ids: ids, amount: cents! }, currentKey()),
    onSuccess: done('Allocated'),
  });
  const take = useMutation({
    mutationFn: () => reclaim({ user_ids: ids, ...(cents ? { amount: cents } : {}) }, currentKey()),
    onSuccess: done('Reclaimed'),
  });
  const error = give.error ?? take.error;
  const source = wallet.company_balance !== null ? 'the company wallet' : 'your wallet';
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Allocations come from {source} ({formatUsd(wallet.company_balance ?? wallet.balance)}); reclaimed money goes
        back to it.
      </Text>
      <MultiSelect
        label="People"
        placeholder={picked.length ? undefined : 'Pick the people you manage'}
        searchable
        data={(members.data?.members ?? []).map((m) => ({ value: String(m.id), label: `${m.name} (${m.email})` }))}
        value={picked}
        onChange={(v) => {
          setPicked(v);
          changed();
        }}
        nothingFoundMessage={members.isLoading ? 'Loading…' : 'Nobody found'}
        maxValues={WALLET_LIMITS.usersPerRequest}
      />
      {picked.length > 0 && (
        <Table aria-label="Balances of the people picked" withRowBorders={false}>
          <Table.Tbody>
            {picked.map((id) => (
              <Table.Tr key={id}>
                <Table.Td>{byId.get(id)?.name}</Table.Td>
                <Table.Td ta="right">{formatUsd(byId.get(id)?.balance)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <TextInput
        label="Amount per person (USD)"
        description="To reclaim everyone's whole balance, leave it empty."
        leftSection="$"
        inputMode="decimal"
        value={amount}
        onChange={(e) => {
          setAmount(e.currentTarget.value);
          changed();
        }}
        error={badAmount ? `Enter $0.01 to ${formatUsd(WALLET_LIMITS.allocateMax)}.` : undefined}
        maw={320}
      />
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {message && (
        <Alert color="teal" role="status">
          {message}
        </Alert>
      )}
      <Group>
        <Button
          onClick={() => give.mutate()}
          loading={give.isPending}
          disabled={!picked.length || !cents || badAmount || take.isPending}
        >
          Allocate
        </Button>
        <Button
          variant="light"
          onClick={() => take.mutate()}
          loading={take.isPending}
          disabled={!picked.length || badAmount || give.isPending}
        >
          Reclaim
        </Button>
      </Group>
    </Stack>
  );
}
