import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../api/client';
import { resetPasswordByToken } from '../api/endpoints';
import { PageHeading } from '../components/PageHeading';

/** Field errors from `{ errors: { field: [msg] } }`, Rails-style: "Password is too short". */
export function fieldError(error: unknown, field: string, label: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const messages = error.errors[field];
  return messages?.length ? messages.map((m) => `${label} ${m}`).join(', ') : undefined;
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('reset_password_token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const mutation = useMutation({
    mutationFn: () =>
      resetPasswordByToken({ reset_password_token: token, password, password_confirmation: confirmation }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate();
  };
  const tokenError = fieldError(mutation.error, 'reset_password_token', 'Reset link');
  const otherError =
    mutation.error instanceof ApiError && !tokenError && mutation.error.errors.user
      ? errorMessage(mutation.error)
      : undefined;

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={420} mx="auto">
      <PageHeading title="Choose a new password" mb="md" />
      {mutation.isSuccess ? (
        <Stack>
          <Alert color="teal" role="status">
            {mutation.data.message}
          </Alert>
          <Anchor component={Link} to="/login">
            Go to sign in
          </Anchor>
        </Stack>
      ) : !token ? (
        <Stack>
          <Text>This page needs the link from your password reset email.</Text>
          <Anchor component={Link} to="/login">
            Back to sign in
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={submit} aria-label="Choose a new password">
          <Stack>
            {(tokenError || otherError) && (
              <Alert color="red" role="alert">
                {tokenError ?? otherError}
                {tokenError && (
                  <>
                    {' '}
                    <Anchor component={Link} to="/login" size="sm">
                      Request a new link
                    </Anchor>
                  </>
                )}
              </Alert>
            )}
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fieldError(mutation.error, 'password', 'Password')}
            />
            <PasswordInput
              label="Confirm new password"
              autoComplete="new-password"
              required
              value={confirmation}
              onChange={(e) => setConfirmation(e.currentTarget.value)}
              error={fieldError(mutation.error, 'password_confirmation', 'Password confirmation')}
            />
            <Button type="submit" loading={mutation.isPending} fullWidth>
              Change password
            </Button>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
