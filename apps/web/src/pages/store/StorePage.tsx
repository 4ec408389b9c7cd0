/**
 * /store: what an agent can order (paid with the card on file). Mailers are priced per contact of the latest
 * contacts search (the stored search, sent as contacts_scope); the count is the server's, shown before paying.
 */

import { formatUsd, STORE_MAX_QUANTITY, type StoreItem } from '@harbor/shared';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { placeOrder } from '../../api/billing';
import { errorMessage } from '../../api/client';
import { callQuery, qk } from '../../api/queries';
import { newIdempotencyKey } from '../../api/wallet';
import { PageHeading } from '../../components/PageHeading';
import { cardLine } from '../billing/shared';
import { STORED_SEARCH_KEY } from '../contacts/useContactsList';

function storedScope(): Record<string, unknown> {
  try {
    return JSON.parse(sessionStorage.getItem(STORED_SEARCH_KEY) ?? '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function StorePage() {
  const items = useQuery(callQuery('GET /v1/store_items'));
  const me = useQuery(callQuery('GET /v1/store_orders/agent_info'));
  const [open, setOpen] = useState<StoreItem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <Stack maw={1000} gap="md">
      <PageHeading title="Store" />
      {me.data && (
        <Text size="sm">
          Ordering as {me.data.name} ({me.data.company}).{' '}
          {me.data.payment_info ? `Paid with ${cardLine(me.data.payment_info)}.` : 'No card on file yet: '}
          {!me.data.payment_info && (
            <Anchor component={Link} to="/billing/update">
              add a card
            </Anchor>
          )}
        </Text>
      )}
      {done && (
        <Alert color="green" withCloseButton onClose={() => setDone(null)}>
          {done}
        </Alert>
      )}
      {items.isLoading && <Loader aria-label="Loading the store" />}
      {items.data && items.data.data.length === 0 && <Text c="dimmed">The store has nothing on sale right now.</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {items.data?.data.map((i) => (
          <Card key={i.id} withBorder padding="md">
            <Stack gap="xs" h="100%" justify="space-between">
              <Stack gap={4}>
                <Text fw={600}>{i.name}</Text>
                <Text size="sm">{i.description}</Text>
              </Stack>
              <Group justify="space-between">
                <Text fw={700}>
                  {formatUsd(i.price)}
                  {i.pricing === 'per_contact' ? ' a contact' : ''}
                </Text>
                <Button
                  size="sm"
                  onClick={() => setOpen(i)}
                  disabled={!me.data?.payment_info}
                  aria-label={`Order ${i.name}`}
                >
                  Order
                </Button>
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      {open && (
        <OrderModal
          item={open}
          onClose={() => setOpen(null)}
          onDone={(msg) => {
            setOpen(null);
            setDone(msg);
          }}
        />
      )}
    </Stack>
  );
}

function OrderModal({
  item,
  onClose,
  onDone,
}: {
  item: StoreItem;
  onClose: () => void;
  onDone: (msg: string) => void;
}) {
  const perContact = item.pricing === 'per_contact';
  const scope = useRef(storedScope());
  const count = useQuery({
    ...callQuery('PATCH /v1/contacts/count', { body: scope.current }),
    enabled: perContact,
  });
  const [quantity, setQuantity] = useState(1);
  const [notes, setNotes] = useState('');
  const key = useRef(newIdempotencyKey());
  const queryClient = useQueryClient();
  const order = useMutation({
    mutationFn: () =>
      placeOrder(
        {
          store_item_id: item.id,
          quantity,
          notes: notes.trim() || undefined,
          ...(perContact ? { contacts_scope: scope.current } : {}),
        },
        key.current,
      ),
    onSuccess: (o) => {
      void queryClient.invalidateQueries({ queryKey: qk('GET /v1/store_orders/agent_info') });
      onDone(
        `Order ${o.number} placed: ${formatUsd(o.amount)} on your card. It is paid once the card processor confirms.`,
      );
    },
  });
  const contacts = count.data?.count ?? 0;
  const total = item.price * quantity * (perContact ? contacts : 1);
  const searched = Object.keys(scope.current).length > 0;
  return (
    <Modal opened onClose={onClose} title={`Order ${item.name}`}>
      <Stack gap="sm">
        {perContact ? (
          <Text size="sm">
            Mailed to{' '}
            {count.isLoading
              ? '…'
              : `${count.data?.exact === false ? 'about ' : ''}${contacts.toLocaleString('en-US')}`}{' '}
            contacts:{' '}
            {searched
              ? 'your latest contacts search.'
              : 'all your contacts (search the contacts list first to narrow it).'}
          </Text>
        ) : (
          <NumberInput
            label="Quantity"
            min={1}
            max={STORE_MAX_QUANTITY}
            value={quantity}
            onChange={(v) => setQuantity(Number(v) || 1)}
          />
        )}
        <Textarea
          label="Notes for the team (optional)"
          maxLength={1000}
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
        />
        <Text fw={600}>Total: {formatUsd(total)}</Text>
        {order.isError && <Alert color="red">{errorMessage(order.error)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => order.mutate()} loading={order.isPending} disabled={perContact && contacts === 0}>
            Pay {formatUsd(total)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
