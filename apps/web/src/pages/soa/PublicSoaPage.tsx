/**
 * /soa/:domain/:token: the beneficiary's scope-of-appointment page. It names the agent (nothing else about the
 * agency), lists the products to pick from, and signs with a typed name and a drawn signature. Expired, withdrawn,
 * invalid and already-signed links each say so plainly.
 */

import { SOA_PRODUCT_LABELS, SOA_PRODUCTS, type SoaProduct } from '@harbor/shared';
import { Alert, Button, Checkbox, Loader, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { submitPublicSoa } from '../../api/events';
import { callQuery } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';
import { SignaturePad } from './SignaturePad';

export function PublicSoaPage() {
  const { domain = '', token = '' } = useParams();
  const view = useQuery({
    ...callQuery('GET /v1/soa_requests/view', { query: { domain_name: domain, token } }),
    retry: false,
  });
  const [signedAt, setSignedAt] = useState<string | null>(null);

  if (view.isPending) return <Loader aria-label="Loading" />;
  if (view.isError) {
    const status = view.error instanceof ApiError ? view.error.status : 0;
    return (
      <Stack>
        <PageHeading title="Scope of appointment" />
        <Alert
          color={status === 410 ? 'orange' : 'red'}
          role="alert"
          title={status === 410 ? 'Link closed' : 'Link not valid'}
        >
          {errorMessage(view.error, 'This page could not be loaded. Please try again later.')}
        </Alert>
      </Stack>
    );
  }
  const v = view.data;
  if (signedAt || v.status === 'signed') {
    return (
      <Stack>
        <PageHeading title="Scope of appointment" />
        <Alert color="green" title="Thank you" role="status">
          {signedAt
            ? `Your scope of appointment was signed and sent to ${v.agent_name}. You can close this page.`
            : 'This scope of appointment is already signed. You can close this page.'}
        </Alert>
      </Stack>
    );
  }
  return (
    <SoaForm
      agentName={v.agent_name}
      offered={(v.products_offered.length ? v.products_offered : SOA_PRODUCTS) as SoaProduct[]}
      domain={domain}
      token={token}
      onSigned={setSignedAt}
    />
  );
}

function SoaForm({
  agentName,
  offered,
  domain,
  token,
  onSigned,
}: {
  agentName: string;
  offered: SoaProduct[];
  domain: string;
  token: string;
  onSigned: (at: string) => void;
}) {
  const [products, setProducts] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [signature, setSignature] = useState<string | null>(null);
  const [address, setAddress] = useState('');
  const [phone, setPhone] = useState('');
  const [tried, setTried] = useState(false);
  const submit = useMutation({
    mutationFn: () =>
      submitPublicSoa({
        domain_name: domain,
        token,
        products: products as SoaProduct[],
        signature_name: name.trim(),
        signature_image: signature!,
        address: address.trim() || undefined,
        phone: phone.trim() || undefined,
      }),
    onSuccess: (r) => onSigned(r.signed_at),
  });
  const errors = submit.error instanceof ApiError ? submit.error.body.errors : {};
  const missing = {
    products: tried && !products.length ? 'Pick at least one product to discuss.' : errors.products?.[0],
    name: tried && name.trim().length < 2 ? 'Type your full name to sign.' : errors.signature_name?.[0],
    signature:
      tried && !signature ? 'Draw your signature in the box, or use your typed name.' : errors.signature_image?.[0],
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (products.length && name.trim().length >= 2 && signature) submit.mutate();
      }}
      noValidate
    >
      <Stack gap="md">
        <PageHeading title="Scope of appointment" />
        <Text>
          <b>{agentName}</b>, a licensed insurance agent, would like to meet with you. Medicare asks that you first say
          which kinds of products you want to talk about. Check the ones you want to discuss and sign below.
        </Text>
        <Text size="sm" c="dimmed">
          Signing does not enroll you in a plan, does not change your current coverage, and does not oblige you to buy
          anything. Only the products you check will be discussed.
        </Text>
        <Paper withBorder p="md">
          <Checkbox.Group
            label="Products to discuss"
            value={products}
            onChange={setProducts}
            error={missing.products}
            withAsterisk
          >
            <Stack gap="xs" mt="xs">
              {offered.map((p) => (
                <Checkbox key={p} value={p} label={SOA_PRODUCT_LABELS[p]} />
              ))}
            </Stack>
          </Checkbox.Group>
        </Paper>
        <TextInput
          label="Your full name"
          description="Typing your name here is your signature."
          withAsterisk
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={missing.name}
        />
        <div>
          <Title order={2} size="h6" id="signature-label" mb={4}>
            Your signature
          </Title>
          <SignaturePad onChange={setSignature} typedName={name} labelId="signature-label" />
          {missing.signature && (
            <Text c="red" size="sm" role="alert" mt={4}>
              {missing.signature}
            </Text>
          )}
        </div>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Address (optional)"
            autoComplete="street-address"
            value={address}
            onChange={(e) => setAddress(e.currentTarget.value)}
          />
          <TextInput
            label="Phone (optional)"
            type="tel"
            autoComplete="tel"
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value)}
          />
        </SimpleGrid>
        {submit.isError && !errors.products && !errors.signature_name && !errors.signature_image && (
          <Alert color="red" role="alert">
            {errorMessage(submit.error)}
          </Alert>
        )}
        <Button type="submit" size="md" loading={submit.isPending}>
          Sign and send
        </Button>
      </Stack>
    </form>
  );
}
