/**
 * Send a scope-of-appointment request: pick the contact (or come with one), the products to offer, and how it goes
 * out (Harbor emails the link, or the agent copies it into a message of their own). The link is shown once sent.
 */

import { formatPhone, SOA_PRODUCT_LABELS, SOA_PRODUCTS, type SoaProduct, type SoaRequest } from '@harbor/shared';
import { qkUnder } from '../../api/queries';

type SoaChannel = SoaRequest['channel'];

import {
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { sendSoa } from '../../api/events';
import { ContactPicker, type PickedContact } from '../../components/ContactPicker';

const DEFAULT_OFFER: SoaProduct[] = ['medicare_advantage', 'part_d', 'dental_vision_hearing', 'medigap'];

export function SendSoaModal({
  opened,
  onClose,
  contact: given,
}: {
  opened: boolean;
  onClose: () => void;
  contact?: PickedContact | null;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Send a scope of appointment" size="lg">
      {opened && <SendSoaForm contact={given ?? null} onClose={onClose} />}
    </Modal>
  );
}

function SendSoaForm({ contact: given, onClose }: { contact: PickedContact | null; onClose: () => void }) {
  const qc = useQueryClient();
  const [contact, setContact] = useState<PickedContact | null>(given);
  const [channel, setChannel] = useState<SoaChannel>('link');
  const [products, setProducts] = useState<string[]>(DEFAULT_OFFER);
  const [sent, setSent] = useState<SoaRequest | null>(null);
  const send = useMutation({
    mutationFn: () => sendSoa({ contact_id: contact!.id, channel, products_offered: products as SoaProduct[] }),
    onSuccess: (soa) => {
      setSent(soa);
      return qc.invalidateQueries(qkUnder('/v1/users/soa_requests'));
    },
  });
  if (sent) {
    return (
      <Stack>
        <Text>
          {channel === 'email'
            ? `Harbor is emailing the link to ${sent.sent_to}. You can also copy it:`
            : channel === 'sms'
              ? `Harbor texted the link to ${formatPhone(sent.sent_to ?? '')}. You can also copy it:`
              : `Copy this link into a message to ${sent.contact.name}:`}
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput label="Signing link" value={sent.link ?? ''} readOnly style={{ flex: 1 }} />
          <CopyButton value={sent.link ?? ''}>
            {({ copied, copy }) => (
              <Button variant={copied ? 'light' : 'filled'} onClick={copy}>
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (contact) send.mutate();
      }}
    >
      <Stack>
        {given ? (
          <Text>
            To <b>{given.name}</b>
          </Text>
        ) : (
          <ContactPicker label="Contact" required value={contact?.id ?? null} current={contact} onChange={setContact} />
        )}
        <MultiSelect
          label="Products the contact may choose"
          data={SOA_PRODUCTS.map((p) => ({ value: p, label: SOA_PRODUCT_LABELS[p] }))}
          value={products}
          onChange={setProducts}
        />
        <div>
          <Text size="sm" fw={500} mb={4} id="soa-channel">
            Send by
          </Text>
          <SegmentedControl
            aria-labelledby="soa-channel"
            value={channel}
            onChange={(v) => setChannel(v as SoaChannel)}
            data={[
              { value: 'link', label: 'Link to copy' },
              { value: 'email', label: 'Email' },
              { value: 'sms', label: 'Text' },
            ]}
          />
        </div>
        {send.isError && (
          <Alert color="red" role="alert">
            {errorMessage(send.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!contact} loading={send.isPending}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
