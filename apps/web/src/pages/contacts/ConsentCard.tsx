/**
 * The consent record on the contact page: each channel's status (since when, how, who), suppressed addresses and the
 * Medicare permission to contact with its expiry. An opt-out heard on a call takes two clicks (FCC 24-18: any
 * reasonable means counts); a consent needs a note saying how it was given.
 */

import {
  CONSENT_CHANNEL_LABELS,
  CONSENT_CHANNELS,
  CONSENT_SOURCE_LABELS,
  CONSENT_STATUS_LABELS,
  type ConsentChannel,
  type ConsentChannelState,
  type ConsentRecord,
  SOA_PRODUCT_LABELS,
  type SOA_PRODUCTS,
} from '@harbor/shared';
import { Alert, Badge, Button, Group, Loader, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { consentApi } from '../../api/consent';
import { callQuery, qk } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { ConsentHistory } from './ConsentHistory';
import { ConsentModal, PtcModal } from './ConsentModals';
import { formatDate } from './format';

const COLOR = { allowed: 'green', opted_out: 'red', unknown: 'gray' } as const;
const SUPPRESSION = { bounced: 'bounced', complained: 'marked spam', opted_out: 'opted out' } as const;
const productLabel = (p: string) => SOA_PRODUCT_LABELS[p as (typeof SOA_PRODUCTS)[number]] ?? p;

function ChannelLine({ s }: { s: ConsentChannelState }) {
  const how = [
    s.since ? `since ${formatDate(s.since)}` : null,
    s.source ? CONSENT_SOURCE_LABELS[s.source] : null,
    s.recorded_by ? `by ${s.recorded_by.name}` : null,
  ].filter(Boolean);
  return (
    <Group gap="xs" wrap="wrap">
      <Badge color={COLOR[s.status]} variant="light" style={{ minWidth: '9rem' }}>
        {CONSENT_CHANNEL_LABELS[s.channel]}: {CONSENT_STATUS_LABELS[s.status]}
      </Badge>
      {s.suppressed && (
        <Badge color="red" variant="outline">
          Address {SUPPRESSION[s.suppressed.reason]}
        </Badge>
      )}
      <Text size="sm" c="dimmed">
        {how.join(' · ') || (s.address ? 'Nothing recorded yet' : `No ${s.channel === 'email' ? 'email' : 'phone'}`)}
        {s.detail ? ` — “${s.detail}”` : ''}
        {s.senders_opted_out.length > 0 && ` · No email from ${s.senders_opted_out.map((x) => x.name).join(', ')}`}
      </Text>
    </Group>
  );
}

function PtcLine({ record }: { record: ConsentRecord }) {
  const p = record.permission_to_contact;
  if (!p) return <Text size="sm">Medicare permission to contact: none on record.</Text>;
  const state =
    p.state === 'active'
      ? `valid until ${formatDate(p.expires_at)}`
      : p.state === 'expired'
        ? `expired ${formatDate(p.expires_at)}`
        : `withdrawn ${formatDate(p.revoked_at)}`;
  return (
    <Text size="sm">
      Medicare permission to contact:{' '}
      <Text span fw={600} c={p.state === 'active' ? undefined : 'red'}>
        {state}
      </Text>{' '}
      for {p.products.map(productLabel).join(', ')} (given {formatDate(p.granted_at)}
      {p.recorded_by ? `, recorded by ${p.recorded_by.name}` : ''}).
    </Text>
  );
}

export function ConsentCard({ number }: { number: number }) {
  const me = useCurrentUser();
  const qc = useQueryClient();
  const key = qk('GET /v1/contacts/{id}/consent', { params: { id: number } });
  const query = useQuery(callQuery('GET /v1/contacts/{id}/consent', { params: { id: number } }));
  const [done, setDone] = useState<string | null>(null);
  const [modal, setModal] = useState<'consent' | 'ptc' | null>(null);
  const [history, setHistory] = useState(false);
  const put = (r: ConsentRecord) => {
    qc.setQueryData(key, r);
    void qc.invalidateQueries({ queryKey: qk('GET /v1/contacts/{id}', { params: { id: number } }), exact: true });
  };
  const optOut = useMutation({
    mutationFn: (channels: ConsentChannel[]) =>
      consentApi.change(number, { channels, status: 'opted_out', source: 'call', note: 'Asked on a call' }),
    onSuccess: (r, channels) => {
      put(r);
      setDone(`Recorded: no more ${channels.map((c) => CONSENT_CHANNEL_LABELS[c].toLowerCase()).join(', ')}.`);
    },
  });
  const revoke = useMutation({ mutationFn: () => consentApi.revokePtc(number), onSuccess: put });
  const medicare = me.features.medicare_center !== false;

  if (query.isPending) return <Loader size="sm" aria-label="Loading the consent record" />;
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(query.error, 'The consent record could not be loaded.')}
      </Alert>
    );
  const record = query.data;
  const error = optOut.error ?? revoke.error;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            Consent
          </Title>
          <Group gap="xs" wrap="wrap">
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button color="red" variant="light" loading={optOut.isPending}>
                  Record opt-out
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>Heard on a call: do not contact by</Menu.Label>
                {CONSENT_CHANNELS.map((c) => (
                  <Menu.Item key={c} onClick={() => optOut.mutate([c])}>
                    {CONSENT_CHANNEL_LABELS[c]}
                  </Menu.Item>
                ))}
                <Menu.Item color="red" onClick={() => optOut.mutate([...CONSENT_CHANNELS])}>
                  Any channel
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
            <Button variant="default" onClick={() => setModal('consent')}>
              Record consent
            </Button>
            {medicare && (
              <Button variant="default" onClick={() => setModal('ptc')}>
                Permission to contact
              </Button>
            )}
            <Button variant="subtle" onClick={() => setHistory((h) => !h)} aria-expanded={history}>
              {history ? 'Hide history' : 'History'}
            </Button>
          </Group>
        </Group>
        {record.channels.map((s) => (
          <ChannelLine key={s.channel} s={s} />
        ))}
        {medicare && (
          <Group gap="xs" justify="space-between" wrap="wrap">
            <PtcLine record={record} />
            {record.permission_to_contact?.state === 'active' && (
              <Button size="xs" variant="subtle" color="red" onClick={() => revoke.mutate()} loading={revoke.isPending}>
                Withdraw permission
              </Button>
            )}
          </Group>
        )}
        {done && (
          <Alert color="green" role="status" withCloseButton onClose={() => setDone(null)}>
            {done}
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {errorMessage(error)}
          </Alert>
        )}
        {history && <ConsentHistory events={record.history} />}
      </Stack>
      <ConsentModal opened={modal === 'consent'} number={number} onClose={() => setModal(null)} onSaved={put} />
      <PtcModal opened={modal === 'ptc'} number={number} onClose={() => setModal(null)} onSaved={put} />
    </Paper>
  );
}
