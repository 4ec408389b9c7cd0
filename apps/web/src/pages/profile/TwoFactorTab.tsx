import {
  Alert,
  Button,
  Code,
  Fieldset,
  Group,
  Image,
  NativeSelect,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client';
import { disable2fa, enable2fa, generateQr, type Update2fa, update2fa } from '../../api/endpoints';
import { useCurrentUser, useUserMutation } from '../../auth/session';
import { RecoveryCodesManage, RecoveryCodesShown, useTwoFactorOnMutation } from './RecoveryCodes';

function Failure({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert">
      {errorMessage(error)}
    </Alert>
  );
}

type OnCodes = (codes: string[]) => void;

function SetUp({ onCodes }: { onCodes: OnCodes }) {
  const qr = useMutation({ mutationFn: generateQr });
  const enable = useTwoFactorOnMutation(enable2fa, onCodes);
  const [code, setCode] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    enable.mutate({ otp_code: code });
  };
  if (!qr.data) {
    return (
      <Stack maw={480} align="flex-start">
        <Text>
          Two-factor authentication asks for a code from your phone each time you sign in, so a stolen password alone is
          not enough.
        </Text>
        <Failure error={qr.error} />
        <Button onClick={() => qr.mutate()} loading={qr.isPending}>
          Set up two-factor
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} aria-label="Set up two-factor">
      <Stack maw={480}>
        <Text>Scan this code with an authenticator app (Google Authenticator, 1Password, Authy, …).</Text>
        <Image src={qr.data.qr_code} alt="QR code for your authenticator app" w={200} h={200} fit="contain" />
        <Text size="sm">
          Can't scan it? Enter this key instead: <Code aria-label="Secret key">{qr.data.secret}</Code>
        </Text>
        <Failure error={enable.error} />
        <TextInput
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
        />
        <Group>
          <Button type="submit" loading={enable.isPending} disabled={code.length !== 6}>
            Turn on two-factor
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Manage({ onCodes }: { onCodes: OnCodes }) {
  const user = useCurrentUser();
  const required = user['two_fa_is_required?'];
  const [method, setMethod] = useState<Update2fa['otp_method']>(user.otp_method);
  const [methodPassword, setMethodPassword] = useState('');
  const [offPassword, setOffPassword] = useState('');
  const change = useTwoFactorOnMutation(update2fa, onCodes);
  const disable = useUserMutation(disable2fa);

  const submitMethod = (e: FormEvent) => {
    e.preventDefault();
    change.mutate({ otp_method: method, password: methodPassword }, { onSuccess: () => setMethodPassword('') });
  };
  const submitOff = (e: FormEvent) => {
    e.preventDefault();
    disable.mutate({ password: offPassword }, { onSuccess: () => setOffPassword('') });
  };

  return (
    <Stack maw={480}>
      <Alert color="teal" role="status">
        Two-factor authentication is on.
      </Alert>
      <form onSubmit={submitMethod} aria-label="Two-factor method">
        <Fieldset legend="How you receive codes">
          <Stack>
            {change.isSuccess && <Text c="teal">Saved.</Text>}
            <Failure error={change.error} />
            <NativeSelect
              label="Code delivery"
              value={method}
              onChange={(e) => setMethod(e.currentTarget.value as Update2fa['otp_method'])}
              data={[
                { value: 'app', label: 'Authenticator app' },
                { value: 'email', label: 'Email' },
              ]}
            />
            <PasswordInput
              label="Password to change the method"
              autoComplete="current-password"
              required
              value={methodPassword}
              onChange={(e) => setMethodPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={change.isPending}>
              Save method
            </Button>
          </Stack>
        </Fieldset>
      </form>
      <RecoveryCodesManage onCodes={onCodes} />
      {required ? (
        <Text size="sm" c="dimmed">
          Your company requires two-factor authentication, so it cannot be turned off.
        </Text>
      ) : (
        <form onSubmit={submitOff} aria-label="Turn off two-factor">
          <Fieldset legend="Turn off two-factor">
            <Stack>
              <Failure error={disable.error} />
              <PasswordInput
                label="Password to turn off two-factor"
                autoComplete="current-password"
                required
                value={offPassword}
                onChange={(e) => setOffPassword(e.currentTarget.value)}
              />
              <Button type="submit" color="red" variant="light" loading={disable.isPending}>
                Turn off two-factor
              </Button>
            </Stack>
          </Fieldset>
        </form>
      )}
    </Stack>
  );
}

export function TwoFactorTab() {
  const user = useCurrentUser();
  const on = user['has_2fa_enabled?'];
  // Codes arrive in the reply that makes them and live only here, until the person says they saved them.
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <Stack>
      {user['two_fa_is_required?'] && !on && (
        <Alert color="yellow" role="alert" maw={480}>
          Your company requires two-factor authentication
        </Alert>
      )}
      {codes && (
        <Stack maw={480}>
          <RecoveryCodesShown codes={codes} email={user.email} onDone={() => setCodes(null)} />
        </Stack>
      )}
      {on ? <Manage onCodes={setCodes} /> : <SetUp onCodes={setCodes} />}
    </Stack>
  );
}
