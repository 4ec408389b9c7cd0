/** Policies and securities of a contact: list, add, delete (policy status can be changed in place). */

import { POLICY_PRODUCT_TYPES, POLICY_STATUSES, SECURITY_KINDS } from '@harbor/shared';
import {
  Alert,
  Button,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { contactsApi, type PolicyInput, type SecurityInput } from '../../api/contacts';
import { callQuery, qkUnder } from '../../api/queries';
import { ConfirmDeleteButton } from '../../components/ConfirmDeleteButton';
import { formatDate, label, toCents, usd } from './format';

const opts = (xs: readonly string[]) => xs.map((x) => ({ value: x, label: label(x) }));

function PolicyForm({ number, onDone }: { number: number; onDone: () => void }) {
  const carriers = useQuery({
    ...callQuery('GET /v1/carriers'),
    staleTime: 300_000,
  });
  const blank = {
    carrier_id: '',
    product_type: 'medicare_advantage',
    plan_name: '',
    policy_number: '',
    premium: '',
    effective_date: '',
  };
  const [v, setV] = useState(blank);
  const set = (k: keyof typeof v) => (e: { currentTarget: { value: string } }) =>
    setV({ ...v, [k]: e.currentTarget.value });
  const add = useMutation({
    mutationFn: () => {
      const body: PolicyInput = { product_type: v.product_type as PolicyInput['product_type'] };
      if (v.carrier_id) body.carrier_id = Number(v.carrier_id);
      if (v.plan_name) body.plan_name = v.plan_name;
      if (v.policy_number) body.policy_number = v.policy_number;
      if (v.premium) body.premium_cents = toCents(v.premium);
      if (v.effective_date) body.effective_date = v.effective_date;
      return contactsApi.addPolicy(number, body);
    },
    onSuccess: () => {
      // The form is ready for the next policy; keeping the last one's values invites a duplicate.
      setV(blank);
      onDone();
    },
  });
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <NativeSelect
          label="Carrier"
          value={v.carrier_id}
          onChange={set('carrier_id')}
          data={[
            { value: '', label: 'None' },
            ...(carriers.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
          ]}
        />
        <NativeSelect
          label="Product"
          value={v.product_type}
          onChange={set('product_type')}
          data={opts(POLICY_PRODUCT_TYPES)}
        />
        <TextInput label="Plan name" value={v.plan_name} onChange={set('plan_name')} />
        <TextInput label="Policy number" value={v.policy_number} onChange={set('policy_number')} />
        <TextInput label="Monthly premium (USD)" value={v.premium} onChange={set('premium')} inputMode="decimal" />
        <TextInput label="Effective date" type="date" value={v.effective_date} onChange={set('effective_date')} />
      </SimpleGrid>
      {add.error && <Alert color="red">{errorMessage(add.error)}</Alert>}
      <Group>
        <Button onClick={() => add.mutate()} loading={add.isPending}>
          Add policy
        </Button>
      </Group>
    </Stack>
  );
}

function SecurityForm({ number, onDone }: { number: number; onDone: () => void }) {
  const blank = { kind: 'annuity', institution: '', account_last4: '', value: '' };
  const [v, setV] = useState(blank);
  const set = (k: keyof typeof v) => (e: { currentTarget: { value: string } }) =>
    setV({ ...v, [k]: e.currentTarget.value });
  const add = useMutation({
    mutationFn: () => {
      const body: SecurityInput = { kind: v.kind as SecurityInput['kind'] };
      if (v.institution) body.institution = v.institution;
      if (v.account_last4) body.account_last4 = v.account_last4;
      if (v.value) body.value_cents = toCents(v.value);
      return contactsApi.addSecurity(number, body);
    },
    onSuccess: () => {
      setV(blank);
      onDone();
    },
  });
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <NativeSelect label="Kind" value={v.kind} onChange={set('kind')} data={opts(SECURITY_KINDS)} />
        <TextInput label="Institution" value={v.institution} onChange={set('institution')} />
        <TextInput label="Account last 4" value={v.account_last4} onChange={set('account_last4')} maxLength={4} />
        <TextInput label="Value (USD)" value={v.value} onChange={set('value')} inputMode="decimal" />
      </SimpleGrid>
      {add.error && <Alert color="red">{errorMessage(add.error)}</Alert>}
      <Group>
        <Button onClick={() => add.mutate()} loading={add.isPending}>
          Add security
        </Button>
      </Group>
    </Stack>
  );
}

export function HoldingsPanel({ number, onChanged }: { number: number; onChanged: () => void }) {
  const qc = useQueryClient();
  const policies = useQuery(callQuery('GET /v1/contacts/{id}/policies', { params: { id: number } }));
  const securities = useQuery({
    ...callQuery('GET /v1/contacts/{id}/securities', { params: { id: number } }),
  });
  const refresh = () => {
    void qc.invalidateQueries(qkUnder('/v1/contacts/{id}', { params: { id: number } }));
    onChanged();
  };
  const status = useMutation({
    mutationFn: (a: { id: number; status: string }) =>
      contactsApi.editPolicy(number, a.id, { status: a.status as PolicyInput['status'] }),
    onSuccess: refresh,
  });
  const delPolicy = useMutation({
    mutationFn: (id: number) => contactsApi.deletePolicy(number, id),
    onSuccess: refresh,
  });
  const delSecurity = useMutation({
    mutationFn: (id: number) => contactsApi.deleteSecurity(number, id),
    onSuccess: refresh,
  });
  const error = status.error ?? delPolicy.error ?? delSecurity.error;
  return (
    <Stack>
      <Title order={4}>Policies</Title>
      {error && <Alert color="red">{errorMessage(error)}</Alert>}
      {policies.data?.data.length === 0 && <Text c="dimmed">No policies yet.</Text>}
      {!!policies.data?.data.length && (
        <Table.ScrollContainer minWidth={820}>
          <Table aria-label="Policies">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Carrier</Table.Th>
                <Table.Th>Product</Table.Th>
                <Table.Th>Plan</Table.Th>
                <Table.Th>Policy number</Table.Th>
                <Table.Th>Monthly premium</Table.Th>
                <Table.Th>Effective</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {policies.data.data.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{p.carrier?.name ?? '—'}</Table.Td>
                  <Table.Td>{label(p.product_type)}</Table.Td>
                  <Table.Td>{p.plan_name ?? '—'}</Table.Td>
                  <Table.Td>{p.policy_number ?? '—'}</Table.Td>
                  <Table.Td>{usd(p.premium_cents)}</Table.Td>
                  <Table.Td>{formatDate(p.effective_date) || '—'}</Table.Td>
                  <Table.Td>
                    <NativeSelect
                      aria-label={`Status of policy ${p.policy_number ?? p.plan_name ?? p.id}`}
                      size="xs"
                      value={p.status}
                      onChange={(e) => status.mutate({ id: p.id, status: e.currentTarget.value })}
                      data={opts(POLICY_STATUSES)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ConfirmDeleteButton
                      label={`Delete policy ${p.policy_number ?? p.plan_name ?? label(p.product_type)}`}
                      onConfirm={() => delPolicy.mutate(p.id)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PolicyForm number={number} onDone={refresh} />
      <Title order={4} mt="md">
        Securities
      </Title>
      {securities.data?.data.length === 0 && <Text c="dimmed">No securities yet.</Text>}
      {!!securities.data?.data.length && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Securities">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Institution</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th>Value</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {securities.data.data.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>{label(s.kind)}</Table.Td>
                  <Table.Td>{s.institution ?? '—'}</Table.Td>
                  <Table.Td>{s.account_last4 ? `•••• ${s.account_last4}` : '—'}</Table.Td>
                  <Table.Td>{usd(s.value_cents)}</Table.Td>
                  <Table.Td>
                    <ConfirmDeleteButton
                      label={`Delete ${label(s.kind)}${s.institution ? ` at ${s.institution}` : ''}`}
                      onConfirm={() => delSecurity.mutate(s.id)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <SecurityForm number={number} onDone={refresh} />
    </Stack>
  );
}
