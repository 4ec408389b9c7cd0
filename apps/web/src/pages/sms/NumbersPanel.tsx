/**
 * Your numbers and their A2P 10DLC registration (carriers deliver only from approved senders), and buying one by
 * area code, paid from the wallet.
 */

import { formatPhone, formatUsd, USAGE_PRICES } from '@harbor/shared';
import { Alert, Badge, Button, Group, Loader, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery, qk } from '../../api/queries';
import { smsApi, textingQueries } from '../../api/sms';

const REG = {
  pending: { color: 'yellow', label: 'Registration pending' },
  approved: { color: 'green', label: 'Approved to send' },
  rejected: { color: 'red', label: 'Registration rejected' },
} as const;

export function NumbersPanel() {
  const qc = useQueryClient();
  const [area, setArea] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const key = useRef(crypto.randomUUID());
  const mine = useQuery({
    ...textingQueries.myNumbers(),
    // A pending registration is approved by the carrier after a while: look again until it is.
    refetchInterval: (q) => (q.state.data?.data.some((n) => n.registration_status === 'pending') ? 5000 : false),
  });
  const found = useQuery({
    ...callQuery('GET /v1/users/phone_numbers/search', { query: { area_code: asked || undefined } }),
    enabled: asked !== null,
  });
  const buy = useMutation({
    mutationFn: (phone: string) => smsApi.buyNumber(phone, key.current),
    onSuccess: () => {
      key.current = crypto.randomUUID();
      setAsked(null);
      void qc.invalidateQueries({ queryKey: qk('GET /v1/users/phone_numbers') });
    },
  });
  return (
    <Stack gap="md">
      {mine.isPending && <Loader size="sm" aria-label="Loading your numbers" />}
      {mine.data && mine.data.data.length === 0 && <Text c="dimmed">You have no number yet.</Text>}
      {mine.data?.data.map((n) => (
        <Group key={n.id} justify="space-between" wrap="wrap">
          <Text fw={600}>{formatPhone(n.phone)}</Text>
          <Badge color={REG[n.registration_status].color} variant="light">
            {REG[n.registration_status].label}
          </Badge>
        </Group>
      ))}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(area.trim());
        }}
      >
        <Group align="end" wrap="wrap">
          <TextInput
            label="Area code"
            placeholder="813"
            value={area}
            onChange={(e) => setArea(e.currentTarget.value.replace(/\D/g, '').slice(0, 3))}
            style={{ width: 120 }}
          />
          <Button type="submit" variant="default">
            Find numbers
          </Button>
        </Group>
      </form>
      {found.error && <Alert color="red">{errorMessage(found.error)}</Alert>}
      {buy.error && <Alert color="red">{errorMessage(buy.error)}</Alert>}
      {found.data && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>Price</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {found.data.data.map((n) => (
              <Table.Tr key={n.phone_number}>
                <Table.Td>{n.friendly_name}</Table.Td>
                <Table.Td>{formatUsd(USAGE_PRICES.phone_number_month.unit_price)} a month</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    onClick={() => buy.mutate(n.phone_number)}
                    loading={buy.isPending && buy.variables === n.phone_number}
                  >
                    Buy {n.friendly_name}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
