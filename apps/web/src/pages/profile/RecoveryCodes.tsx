import { Alert, Button, Code, Fieldset, Group, PasswordInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client';
import { regenerateRecoveryCodes, type TwoFactorOn } from '../../api/endpoints';
import { callQuery, qk } from '../../api/queries';
import { setCurrentUser } from '../../auth/session';

const STATUS_KEY = qk('GET /v1/users/two_factor/recovery_codes');

/** Saves the codes as a text file; nothing leaves the browser. */
function download(codes: string[], email: string) {
  const text = [
    `Harbor two-factor recovery codes for ${email}`,
    `Made ${new Date().toLocaleString('en-US')}. Each code works once, in place of a code from your phone.`,
    '',
    ...codes,
    '',
  ].join('\n');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'harbor-recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

/** The codes of the one reply that carries them: shown until the person says they saved them. */
export function RecoveryCodesShown({ codes, email, onDone }: { codes: string[]; email: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Alert color="yellow" role="region" aria-label="Your recovery codes" title="Save your recovery codes">
      <Stack gap="sm">
        <Text size="sm">
          If you lose your phone, sign in with one of these codes instead of a code from it. Each code works once. Keep
          them somewhere safe, like a password manager: this is the only time Harbor shows them.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" component="ul" style={{ listStyle: 'none', padding: 0 }}>
          {codes.map((c) => (
            <li key={c}>
              <Code fz="md">{c}</Code>
            </li>
          ))}
        </SimpleGrid>
        <Group gap="xs">
          <Button variant="light" onClick={() => download(codes, email)}>
            Download
          </Button>
          <Button
            variant="light"
            onClick={() => {
              void navigator.clipboard?.writeText(codes.join('\n')).then(() => setCopied(true));
            }}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button onClick={onDone}>I saved my codes</Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** How many codes are left, and a new set with the password (the old set stops working). */
export function RecoveryCodesManage({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const queryClient = useQueryClient();
  const status = useQuery(callQuery('GET /v1/users/two_factor/recovery_codes'));
  const [password, setPassword] = useState('');
  const regenerate = useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: (reply) => {
      setPassword('');
      onCodes(reply.recovery_codes);
      void queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    regenerate.mutate({ password });
  };
  const left = status.data?.left;
  return (
    <form onSubmit={submit} aria-label="Recovery codes">
      <Fieldset legend="Recovery codes">
        <Stack>
          {status.data && (
            <Text size="sm" c={left === 0 ? 'red' : undefined}>
              {left} of {status.data.total} recovery codes left.
              {left !== undefined && left <= 3 && ' Make a new set so you are not locked out if you lose your phone.'}
            </Text>
          )}
          {regenerate.isError && (
            <Alert color="red" role="alert">
              {errorMessage(regenerate.error)}
            </Alert>
          )}
          <PasswordInput
            label="Password to make new recovery codes"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" variant="light" loading={regenerate.isPending}>
            Make new recovery codes
          </Button>
          <Text size="xs" c="dimmed">
            Your current codes stop working as soon as the new ones are made.
          </Text>
        </Stack>
      </Fieldset>
    </form>
  );
}

/** For enable and update_2fa: keeps the user, hands the codes (present when two-factor was just turned on) over. */
export function useTwoFactorOnMutation<TVars>(
  mutationFn: (vars: TVars) => Promise<TwoFactorOn>,
  onCodes: (codes: string[]) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (reply) => {
      // The codes never enter the query cache: only the user does.
      const { recovery_codes, ...user } = reply;
      setCurrentUser(queryClient, user);
      if (recovery_codes?.length) onCodes(recovery_codes);
      void queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    },
  });
}
