/**
 * Admin > Single sign-on (System Admin): the company's OpenID Connect provider. Shows what to register at the
 * provider, takes the issuer, client id and secret (write-only: a stored one is kept when the field stays empty),
 * checks the provider answers, and removes the set-up. The company's single_sign_on flag turns the button on.
 */

import { Alert, Anchor, Button, Code, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { checkSsoConnection, removeSsoConnection, saveSsoConnection } from '../../api/admin';
import { ApiError, errorMessage } from '../../api/client';
import { callQuery, qk } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';

export function SsoPage() {
  const qc = useQueryClient();
  const q = useQuery(callQuery('GET /v1/admin/sso_connection'));
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const [confirmRemove, setConfirmRemove] = useState(false);
  const conn = q.data?.connection ?? null;
  useEffect(() => {
    setIssuer(conn?.issuer ?? '');
    setClientId(conn?.client_id ?? '');
  }, [conn?.issuer, conn?.client_id]);

  const check = useMutation({ mutationFn: checkSsoConnection });
  const save = useMutation({
    mutationFn: () => saveSsoConnection({ issuer, client_id: clientId, ...(secret ? { client_secret: secret } : {}) }),
    onSuccess: (data) => {
      qc.setQueryData(qk('GET /v1/admin/sso_connection'), data);
      setSecret('');
      check.reset();
    },
  });
  const remove = useMutation({
    mutationFn: removeSsoConnection,
    onSuccess: () => {
      setConfirmRemove(false);
      check.reset();
      return qc.invalidateQueries({ queryKey: qk('GET /v1/admin/sso_connection') });
    },
  });
  const err = (k: string) => (save.error instanceof ApiError ? save.error.errors[k]?.[0] : undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  if (q.isPending) return <Text c="dimmed">Loading…</Text>;
  if (q.isError) return <Alert color="red">{errorMessage(q.error)}</Alert>;
  const data = q.data;
  return (
    <Stack maw={720}>
      <PageHeading title="Single sign-on" section="Admin" />
      <Text size="sm">
        People of the company sign in with your identity provider (OpenID Connect) instead of a Harbor password.
        Register Harbor at the provider with these addresses:
      </Text>
      <Stack gap={4} aria-label="Addresses to register">
        <Text size="sm">
          Redirect URI: <Code>{data.redirect_uri}</Code>
        </Text>
        <Text size="sm">
          Back-channel logout URI: <Code>{data.backchannel_logout_uri}</Code>
        </Text>
      </Stack>
      {!data.enabled && (
        <Alert color="yellow" title="Single sign-on is switched off">
          The sign-in page offers it once the Single sign-on flag is on in{' '}
          <Anchor component={Link} to="/admin/feature-flags">
            Feature flags
          </Anchor>
          .
        </Alert>
      )}
      <form onSubmit={submit} aria-label="Identity provider">
        <Stack>
          <TextInput
            label="Issuer URL"
            placeholder="https://login.example.com"
            value={issuer}
            onChange={(e) => setIssuer(e.currentTarget.value)}
            error={err('issuer')}
            required
          />
          <TextInput
            label="Client ID"
            value={clientId}
            onChange={(e) => setClientId(e.currentTarget.value)}
            error={err('client_id')}
            required
          />
          <PasswordInput
            label="Client secret"
            description={conn?.has_client_secret ? 'A secret is stored. Leave this empty to keep it.' : undefined}
            value={secret}
            onChange={(e) => setSecret(e.currentTarget.value)}
            error={err('client_secret')}
            required={!conn}
          />
          {save.isError && !(save.error instanceof ApiError) && <Alert color="red">{errorMessage(save.error)}</Alert>}
          {save.isSuccess && <Alert color="teal">Saved.</Alert>}
          <Group>
            <Button type="submit" loading={save.isPending}>
              {conn ? 'Save changes' : 'Set up single sign-on'}
            </Button>
            {conn && (
              <>
                <Button variant="light" onClick={() => check.mutate()} loading={check.isPending}>
                  Check the provider
                </Button>
                <Button variant="subtle" color="red" onClick={() => setConfirmRemove(true)}>
                  Remove
                </Button>
              </>
            )}
          </Group>
          {check.data && (
            <Alert color={check.data.ok ? 'teal' : 'red'} role="status" aria-label="Provider check">
              {check.data.message}
            </Alert>
          )}
        </Stack>
      </form>
      <Modal opened={confirmRemove} onClose={() => setConfirmRemove(false)} title="Remove single sign-on">
        <Stack>
          <Text size="sm">
            People will sign in with their Harbor passwords again. Sessions already open stay open. Remove it?
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmRemove(false)}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              Remove single sign-on
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
