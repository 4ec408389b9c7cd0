/**
 * /wallets/receipt?payment=<id>: the receipt of a card payment. The money is credited when the processor confirms
 * (its signed webhook), a moment after the card form's answer, so the page waits for that, then shows the invoice.
 * The spec hides the chat popup here; the app has no chat popup yet, so there is nothing to hide.
 */

import { cardBrandLabel, formatUsd, maskedCard } from '@harbor/shared';
import { Alert, Anchor, Badge, Button, Center, Group, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { callQuery, qkUnder } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';

const STATUS = {
  pending: { label: 'Waiting for the card processor', color: 'yellow' },
  succeeded: { label: 'Paid', color: 'teal' },
  failed: { label: 'Not paid', color: 'red' },
  requires_action: { label: 'Not paid', color: 'red' },
} as const;

export function ReceiptPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('payment'));
  const valid = Number.isSafeInteger(id) && id > 0;
  const payment = useQuery({
    ...callQuery('GET /v1/wallets/payments/{id}', { params: { id } }),
    enabled: valid,
    // Poll while the processor has not confirmed yet; stop once it has (or refused).
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 750 : false),
  });
  const p = payment.data;
  // A paid payment changed the balance, the transactions and the invoices: the wallet page must not show what it
  // cached before (its staleTime of two seconds is shorter than most payments, not all).
  const queryClient = useQueryClient();
  const paid = p?.status === 'succeeded';
  useEffect(() => {
    if (paid) {
      const wallet = qkUnder('/v1/wallets');
      void queryClient.invalidateQueries({
        predicate: (q) => wallet.predicate(q) && q.queryKey[0] !== 'GET /v1/wallets/payments/{id}',
      });
    }
  }, [paid, queryClient]);
  const brand = p?.card_brand ? cardBrandLabel(p.card_brand) : null;
  return (
    <Stack maw={560} gap="md">
      <PageHeading title="Receipt" section="Wallet" />
      {!valid && <Alert color="red">This receipt link does not name a payment.</Alert>}
      {payment.isError && (
        <Alert color="red" role="alert">
          {errorMessage(payment.error)}
        </Alert>
      )}
      {valid && payment.isLoading && (
        <Center py="xl">
          <Loader aria-label="Loading the receipt" />
        </Center>
      )}
      {p && (
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Group justify="space-between">
              <Text fz={28} fw={700}>
                {formatUsd(p.amount)}
              </Text>
              <Badge color={STATUS[p.status].color} size="lg" role="status">
                {STATUS[p.status].label}
              </Badge>
            </Group>
            {p.status === 'pending' && (
              <Group gap="xs">
                <Loader size="xs" aria-hidden="true" />
                <Text size="sm">
                  Your card was charged; the money reaches your wallet as soon as the processor confirms.
                </Text>
              </Group>
            )}
            {p.failure_message && (
              <Alert color="red" title="The card was not charged">
                {p.failure_message}
              </Alert>
            )}
            <Table withRowBorders={false} aria-label="Payment details">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th scope="row">Description</Table.Th>
                  <Table.Td>{p.description}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">Card</Table.Th>
                  <Table.Td>{brand ? `${brand} ${maskedCard(p.card_last4)}` : 'N/A'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">Wallet</Table.Th>
                  <Table.Td>{p.wallet === 'company' ? 'Company wallet' : 'My wallet'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">Date</Table.Th>
                  <Table.Td>
                    {new Date(p.paid_at ?? p.created_at).toLocaleString('en-US', {
                      dateStyle: 'medium',
                      timeStyle: 'short',
                    })}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">Invoice</Table.Th>
                  <Table.Td>{p.invoice_number ?? 'N/A'}</Table.Td>
                </Table.Tr>
                {p.status === 'succeeded' && (
                  <Table.Tr>
                    <Table.Th scope="row">Balance now</Table.Th>
                    <Table.Td data-testid="receipt-balance">{formatUsd(p.balance)}</Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
            <Group>
              {p.status === 'succeeded' && (
                <Button component="a" href={`/v1/wallets/invoices/${p.id}/pdf`} download>
                  Download invoice (PDF)
                </Button>
              )}
              <Anchor component={Link} to="/wallets">
                Back to the wallet
              </Anchor>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
