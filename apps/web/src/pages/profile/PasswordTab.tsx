import { PASSWORD_MIN } from '@harbor/shared';
import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { type PasswordChange, updatePassword } from '../../api/endpoints';
import { useCurrentUser, useUserMutation } from '../../auth/session';
import { fieldError } from '../ResetPasswordPage';

export function PasswordTab() {
  const user = useCurrentUser();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const mutation = useUserMutation((body: PasswordChange) => updatePassword(user.id, body));
  const forced = user['change_password?'];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate(
      { current_password: current, password, password_confirmation: confirmation },
      {
        onSuccess: () => {
          setCurrent('');
          setPassword('');
          setConfirmation('');
        },
      },
    );
  };
  const error = mutation.error;
  const general = error instanceof ApiError && error.errors.user ? errorMessage(error) : undefined;

  return (
    <form onSubmit={submit} aria-label="Change password">
      <Stack maw={420}>
        {forced && (
          <Alert color="yellow" role="alert">
            You must change your password before continuing
          </Alert>
        )}
        {mutation.isSuccess && (
          <Alert color="teal" role="status">
            Your password has been changed.
          </Alert>
        )}
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.currentTarget.value)}
          error={fieldError(error, 'current_password', 'Current password')}
        />
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={fieldError(error, 'password', 'Password')}
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(e) => setConfirmation(e.currentTarget.value)}
          error={fieldError(error, 'password_confirmation', 'Password confirmation')}
        />
        <Text size="xs" c="dimmed">
          Use at least {PASSWORD_MIN} characters; not a common password, nor your name or email. A long passphrase of a
          few unrelated words is best.
        </Text>
        <Button type="submit" loading={mutation.isPending}>
          Change password
        </Button>
      </Stack>
    </form>
  );
}
