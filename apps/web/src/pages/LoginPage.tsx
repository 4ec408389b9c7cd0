import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../api/client';
import { isOtpStep, login, type OtpStep, resetPasswordInstructions, sendOtp } from '../api/endpoints';
import { takePostLoginTarget } from '../auth/storage';
import { setCurrentUser } from '../auth/userCache';
import { PageHeading } from '../components/PageHeading';

function loginError(error: unknown): string {
  if (error instanceof ApiError && error.status === 429 && !error.errors.user?.length) {
    return 'Too many sign-in attempts. Please wait a while and try again.';
  }
  return errorMessage(error, 'Sign-in failed. Please try again.');
}

function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert">
      {loginError(error)}
    </Alert>
  );
}

function useFinishLogin() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (user: Parameters<typeof setCurrentUser>[1]) => {
    setCurrentUser(queryClient, user);
    navigate(takePostLoginTarget() ?? '/', { replace: true });
  };
}

function CredentialsStep({ onOtp }: { onOtp: (step: OtpStep) => void }) {
  const finish = useFinishLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const mutation = useMutation({
    mutationFn: () => login({ email: email.trim(), password }),
    onSuccess: (reply) => (isOtpStep(reply) ? onOtp(reply) : finish(reply.user)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Sign in">
      <Stack>
        <ErrorAlert error={mutation.error} />
        <TextInput
          label="Email or username"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Button type="submit" loading={mutation.isPending} fullWidth>
          Sign in
        </Button>
        <Anchor component={Link} to="/login?step=forgot" size="sm">
          Forgot password?
        </Anchor>
        <Anchor component={Link} to="/login/sso" size="sm">
          Sign in with single sign-on
        </Anchor>
      </Stack>
    </form>
  );
}

/** Without the phone: one of the recovery codes saved when two-factor was turned on (each works once). */
function RecoveryCodeForm({ onBack }: { onBack: () => void }) {
  const finish = useFinishLogin();
  const [code, setCode] = useState('');
  const mutation = useMutation({
    mutationFn: () => login({ recovery_code: code }),
    onSuccess: (reply) => {
      if (!isOtpStep(reply)) finish(reply.user);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Sign in with a recovery code">
      <Stack>
        <Text size="sm">
          Enter one of the recovery codes you saved when you turned on two-factor. Each code works once.
        </Text>
        <ErrorAlert error={mutation.error} />
        <TextInput
          label="Recovery code"
          placeholder="xxxx-xxxx-xxxx"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={40}
          required
          autoFocus
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
        />
        <Button type="submit" loading={mutation.isPending} disabled={code.trim().length < 12} fullWidth>
          Verify
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Use a code from your phone or email instead
        </Anchor>
      </Stack>
    </form>
  );
}

function OtpStepForm({ step, onBack }: { step: OtpStep; onBack: () => void }) {
  const finish = useFinishLogin();
  const [code, setCode] = useState('');
  const [method, setMethod] = useState(step.otp_method);
  const [recovery, setRecovery] = useState(false);
  const mutation = useMutation({
    mutationFn: () => login({ otp_code: code }),
    onSuccess: (reply) => {
      if (!isOtpStep(reply)) finish(reply.user);
    },
  });
  const resend = useMutation({ mutationFn: sendOtp, onSuccess: () => setMethod('email') });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate();
  };
  if (recovery) return <RecoveryCodeForm onBack={() => setRecovery(false)} />;
  return (
    <form onSubmit={submit} aria-label="Two-factor authentication">
      <Stack>
        <Text size="sm">
          {method === 'email'
            ? 'We emailed you a 6-digit code. Enter it below to finish signing in.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </Text>
        <ErrorAlert error={mutation.error} />
        <TextInput
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          pattern="\d{6}"
          required
          autoFocus
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
        />
        <Button type="submit" loading={mutation.isPending} disabled={code.length !== 6} fullWidth>
          Verify
        </Button>
        {resend.isSuccess && (
          <Text size="sm" c="teal" role="status">
            A new code is on its way to your email.
          </Text>
        )}
        {resend.isError && (
          <Text size="sm" c="red" role="alert">
            {errorMessage(resend.error)}
          </Text>
        )}
        {/* A link, as users know it from other sign-ins; it asks the server to email a code, it goes nowhere. */}
        <Anchor
          href="/login"
          size="sm"
          aria-disabled={resend.isPending}
          onClick={(e) => {
            e.preventDefault();
            if (!resend.isPending) resend.mutate();
          }}
        >
          Email me a code
        </Anchor>
        <Anchor component="button" type="button" size="sm" onClick={() => setRecovery(true)}>
          Use a recovery code
        </Anchor>
        <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onBack}>
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}

function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const mutation = useMutation({ mutationFn: () => resetPasswordInstructions({ email: email.trim() }) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate();
  };
  if (mutation.isSuccess) {
    return (
      <Stack>
        <Alert color="teal" role="status">
          {mutation.data.message}
        </Alert>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Back to sign in
        </Anchor>
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} aria-label="Reset password">
      <Stack>
        <Text size="sm">Enter your email and we will send you a link to choose a new password.</Text>
        <ErrorAlert error={mutation.error} />
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <Button type="submit" loading={mutation.isPending} fullWidth>
          Send reset instructions
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}

/**
 * The forgot-password form has its own address (/login?step=forgot); the code step does not, it needs the reply (from
 * the credentials step, or handed over in the navigation state by the single sign-on callback).
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Single sign-on arrives here with the code step already begun (SsoCallbackPage passes the reply along).
  const handedOver = (useLocation().state as { otp?: OtpStep } | null)?.otp;
  const [otp, setOtp] = useState<OtpStep | null>(handedOver && isOtpStep(handedOver) ? handedOver : null);
  const forgot = params.get('step') === 'forgot';
  const back = () => {
    setOtp(null);
    navigate('/login');
  };
  const title = forgot ? 'Forgot your password?' : otp ? 'Verify it’s you' : 'Sign in';
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={420} mx="auto">
      <PageHeading title={title} mb="md" />
      {forgot ? (
        <ForgotPasswordForm onBack={back} />
      ) : otp ? (
        <OtpStepForm step={otp} onBack={back} />
      ) : (
        <CredentialsStep onOtp={setOtp} />
      )}
    </Paper>
  );
}
