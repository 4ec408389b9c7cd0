/** Recording a consent (with how it was given) and a Medicare permission to contact, from the consent card. */
import {
  CONSENT_CHANNEL_LABELS,
  CONSENT_CHANNELS,
  CONSENT_SOURCE_LABELS,
  type ConsentChannel,
  type ConsentRecord,
  PTC_MONTHS,
  SOA_PRODUCT_LABELS,
  SOA_PRODUCTS,
  type SoaProduct,
} from '@harbor/shared';
import { Alert, Button, Checkbox, Group, Modal, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { consentApi } from '../../api/consent';

const SOURCES = ['agent', 'call', 'form', 'reply'] as const;
const sourceOptions = SOURCES.map((s) => ({ value: s, label: CONSENT_SOURCE_LABELS[s] }));
type Source = (typeof SOURCES)[number];

interface Props {
  opened: boolean;
  number: number;
  onClose(): void;
  onSaved(r: ConsentRecord): void;
}

function Footer({ onClose, pending, disabled }: { onClose(): void; pending: boolean; disabled: boolean }) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onClose}>
        Cancel
      </Button>
      <Button type="submit" loading={pending} disabled={disabled}>
        Save
      </Button>
    </Group>
  );
}

export function ConsentModal({ opened, number, onClose, onSaved }: Props) {
  const [channels, setChannels] = useState<string[]>([]);
  const [source, setSource] = useState<Source>('agent');
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () =>
      consentApi.change(number, { channels: channels as ConsentChannel[], status: 'allowed', source, note }),
    onSuccess: (r) => {
      onSaved(r);
      setChannels([]);
      setNote('');
      onClose();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Record consent">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <Checkbox.Group label="The person agreed to" value={channels} onChange={setChannels} required>
            <Group mt="xs">
              {CONSENT_CHANNELS.map((c) => (
                <Checkbox key={c} value={c} label={CONSENT_CHANNEL_LABELS[c]} />
              ))}
            </Group>
          </Checkbox.Group>
          <NativeSelect
            label="How"
            data={sourceOptions}
            value={source}
            onChange={(e) => setSource(e.currentTarget.value as Source)}
          />
          <Textarea
            label="What they said or signed, and when"
            description="Kept as evidence with your name."
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            required
            minLength={3}
            maxLength={500}
          />
          {save.error && (
            <Alert color="red" role="alert">
              {errorMessage(save.error)}
            </Alert>
          )}
          <Footer onClose={onClose} pending={save.isPending} disabled={!channels.length || note.trim().length < 3} />
        </Stack>
      </form>
    </Modal>
  );
}

const today = () => new Date().toISOString().slice(0, 10);

export function PtcModal({ opened, number, onClose, onSaved }: Props) {
  const [products, setProducts] = useState<string[]>([]);
  const [source, setSource] = useState<Source>('agent');
  const [given, setGiven] = useState(today());
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () => {
      // A day chosen today means now; an earlier day means noon of that day (the hour is rarely known).
      const at = given === today() ? new Date() : new Date(`${given}T12:00:00`);
      return consentApi.grantPtc(number, {
        products: products as SoaProduct[],
        source,
        note: note || undefined,
        granted_at: at.toISOString(),
      });
    },
    onSuccess: (r) => {
      onSaved(r);
      setProducts([]);
      setNote('');
      onClose();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Medicare permission to contact">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <Text size="sm">
            The beneficiary's permission lasts {PTC_MONTHS} months and covers only the products they named.
          </Text>
          <Checkbox.Group label="Products named" value={products} onChange={setProducts} required>
            <Stack gap={6} mt="xs">
              {SOA_PRODUCTS.map((p) => (
                <Checkbox key={p} value={p} label={SOA_PRODUCT_LABELS[p]} />
              ))}
            </Stack>
          </Checkbox.Group>
          <TextInput
            type="date"
            label="Given on"
            value={given}
            max={today()}
            onChange={(e) => setGiven(e.currentTarget.value)}
            required
          />
          <NativeSelect
            label="How"
            data={sourceOptions}
            value={source}
            onChange={(e) => setSource(e.currentTarget.value as Source)}
          />
          <Textarea label="Note" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={500} />
          {save.error && (
            <Alert color="red" role="alert">
              {errorMessage(save.error)}
            </Alert>
          )}
          <Footer onClose={onClose} pending={save.isPending} disabled={!products.length || !given} />
        </Stack>
      </form>
    </Modal>
  );
}
