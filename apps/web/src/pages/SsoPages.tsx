/**
 * Single sign-on pages: /login/sso asks for the company address and sends the browser to its provider;
 * /api/auth/callback posts the provider's answer to the server (the spec lists it among the pages that do not load
 * the user); /sso-logout is where a person lands after signing out at the provider.
 */

import { Alert, Anchor, Button, Loader, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type BodyOf, call } from '../api/call';
import { ApiError, errorMessage } from '../api/client';
import { setCurrentUser } from '../auth/userCache';
import { PageHeading } from '../components/PageHeading';

/** The spec's error kinds, as the server names them, in words a person can act on. */
const KIND_TEXT: Record<string, string> = {
  missing_state: 'The sign-in attempt expired or was already used.',
  invalid_state: 'The sign-in attempt did not match this browser.',
  authorization_error: 'The identity provider did not sign you in.',
  code_exchange_error: 'The identity provider did not confirm the sign-in.',
  discovery_error: 'The identity provider cannot be reached right now.',
  oauth2_error: 'The identity provider answered something unexpected.',
};

export function SsoStartPage() {
  const [domain, setDomain] = useState(window.location.hostname);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Paper maw={420} mx="auto" p="lg" withBorder>
      <form
        aria-label="Single sign-on"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            const reply = await call('POST /v1/sessions/sso', { body: { domain_name: domain } });
            if ('authorization_url' in reply) window.location.assign(reply.authorization_url);
          } catch (err) {
            setError(errorMessage(err));
            setBusy(false);
          }
        }}
      >
        <Stack>
          <PageHeading title="Single sign-on" />
          <TextInput
            label="Company address"
            required
            value={domain}
            onChange={(e) => setDomain(e.currentTarget.value)}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy}>
            Continue
          </Button>
          <Anchor component={Link} to="/login" size="sm">
            Sign in with a password instead
          </Anchor>
        </Stack>
      </form>
    </Paper>
  );
}

export function SsoCallbackPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    // Once only: the state is single use, a second post would fail with missing_state.
    if (sent.current) return;
    sent.current = true;
    const params = Object.fromEntries(new URLSearchParams(window.location.search));
    // The provider's answer as it came back in the address; the server checks it against SsoBody.
    call('POST /v1/sessions/sso', { body: params as BodyOf<'POST /v1/sessions/sso'> })
      .then((reply) => {
        if ('user' in reply) {
          setCurrentUser(queryClient, reply.user);
          navigate('/', { replace: true });
          // Two-factor on: the provider vouched for the person, Harbor still asks for their own code.
        } else navigate('/login', { replace: true, state: { otp: reply } });
      })
      .catch((err) => {
        const kind = err instanceof ApiError ? Object.keys(err.errors).find((k) => KIND_TEXT[k]) : undefined;
        setError(kind ? `${KIND_TEXT[kind]} ${errorMessage(err)}` : errorMessage(err));
      });
  }, [navigate, queryClient]);
  return (
    <Stack maw={420} mx="auto" align="center">
      {!error && <Loader aria-label="Signing you in" />}
      {error && (
        <Alert color="red" role="alert" title="Single sign-on failed">
          {error}
        </Alert>
      )}
      {error && (
        <Anchor component={Link} to="/login/sso">
          Try again
        </Anchor>
      )}
    </Stack>
  );
}

export function SsoLogoutPage() {
  return (
    <Stack maw={420} mx="auto">
      <PageHeading title="Signed out" />
      <Text>You signed out at your identity provider, so your Harbor session has ended too.</Text>
      <Anchor component={Link} to="/login">
        Sign in again
      </Anchor>
    </Stack>
  );
}
