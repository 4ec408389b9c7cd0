/**
 * Top up with a card, in our own card form (Stripe.js cannot load offline; docs/decisions/loopback-processor.md).
 * The number goes to the processor's card endpoint and is forgotten; the top-up sends only the processor's card id.
 * The wallet is credited when the processor confirms, which the receipt page waits for.
 */
import {
  CARD_BRAND_LABELS,
  cardBrand,
  cardDigits,
  cvcValid,
  formatCardNumber,
  formatUsd,
  luhnValid,
  parseExpiry,
  parseUsd,
  WALLET_LIMITS,
  type WalletState,
} from '@harbor/shared';
import { Alert, Button, Checkbox, Group, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { newIdempotencyKey, tokenizeCard, topUp } from '../../api/wallet';

type Errors = Partial<Record<'amount' | 'number' | 'expiry' | 'cvc' | 'card', string>>;
const EXPIRY_ERRORS = {
  format: 'Enter the expiry as MM/YY.',
  month: 'The month must be 01 to 12.',
  past: 'This card has expired.',
} as const;

function check(amountText: string, number: string, expiry: string, cvc: string): Errors {
  const e: Errors = {};
  const cents = parseUsd(amountText);
  if (cents === null || cents < WALLET_LIMITS.topUpMin || cents > WALLET_LIMITS.topUpMax) {
    e.amount = `Enter an amount from ${formatUsd(WALLET_LIMITS.topUpMin)} to ${formatUsd(WALLET_LIMITS.topUpMax)}, in dollars and cents.`;
  }
  if (!luhnValid(number)) e.number = 'Enter a valid card number.';
  const exp = parseExpiry(expiry);
  if ('error' in exp) e.expiry = EXPIRY_ERRORS[exp.error];
  if (!cvcValid(cvc, cardBrand(number))) {
    e.cvc = cardBrand(number) === 'amex' ? 'Enter the 4-digit code.' : 'Enter the 3-digit code.';
  }
  return e;
}

export function TopUpForm({ wallet }: { wallet: WalletState }) {
  const navigate = useNavigate();
  const [amount, setAmount] = useState('25.00');
  const [description, setDescription] = useState('');
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [saveCard, setSaveCard] = useState(!wallet.card);
  const [target, setTarget] = useState<'personal' | 'company'>('personal');
  const [errors, setErrors] = useState<Errors>({});
  // One key per payment the person means to make: a second click or a retry after a lost answer is the same one.
  const key = useRef<string | null>(null);
  const edited = () => {
    key.current = null;
  };

  const pay = useMutation({
    mutationFn: async () => {
      const exp = parseExpiry(expiry) as { month: number; year: number };
      const pm = await tokenizeCard({ number: cardDigits(number), exp_month: exp.month, exp_year: exp.year, cvc });
      key.current ??= newIdempotencyKey();
      return topUp(
        {
          amount: parseUsd(amount)!,
          description: description.trim() || undefined,
          payment_method_id: pm.id,
          save_card: saveCard,
          ...(target === 'company' ? { wallet: 'company' as const } : {}),
        },
        key.current,
      );
    },
    onSuccess: (payment) => {
      key.current = null;
      navigate(`/wallets/receipt?payment=${payment.id}`);
    },
    onError: (err) => {
      if (!(err instanceof ApiError)) return;
      const f = err.errors;
      setErrors({
        number: f.number?.[0],
        expiry: f.expiry?.[0] ?? f.exp_month?.[0],
        cvc: f.cvc?.[0],
        amount: f.amount?.[0],
        card: f.card?.[0],
      });
    },
  });

  if (wallet.processor.kind !== 'loopback') {
    return (
      <Alert color="yellow" title="Card payments are not available here">
        This server charges cards through Stripe, whose own card form is not part of this build. Ask your administrator
        to top up your wallet or allocate funds to you.
      </Alert>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = check(amount, number, expiry, cvc);
    setErrors(found);
    if (Object.keys(found).length === 0) pay.mutate();
  };
  const brand = cardBrand(number);
  const cents = parseUsd(amount);
  const shownOnFields = ['number', 'expiry', 'cvc', 'amount', 'card'];
  const otherError =
    pay.isError &&
    !(pay.error instanceof ApiError && Object.keys(pay.error.errors).some((k) => shownOnFields.includes(k)));

  return (
    <form onSubmit={submit} aria-label="Top up with a card" noValidate>
      <Stack gap="sm">
        {wallet.company_balance !== null && (
          <div>
            <Text size="sm" fw={500} id="topup-target">
              Add the money to
            </Text>
            <SegmentedControl
              aria-labelledby="topup-target"
              value={target}
              onChange={(v) => setTarget(v as 'personal' | 'company')}
              data={[
                { value: 'personal', label: 'My wallet' },
                { value: 'company', label: 'Company wallet' },
              ]}
            />
          </div>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Amount (USD)"
            leftSection="$"
            inputMode="decimal"
            value={amount}
            onChange={(e) => {
              setAmount(e.currentTarget.value);
              edited();
            }}
            error={errors.amount}
            required
          />
          <TextInput
            label="Description"
            placeholder="Wallet top-up"
            maxLength={WALLET_LIMITS.descriptionMax}
            value={description}
            onChange={(e) => {
              setDescription(e.currentTarget.value);
              edited();
            }}
          />
        </SimpleGrid>
        <TextInput
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={number}
          onChange={(e) => {
            setNumber(formatCardNumber(e.currentTarget.value));
            edited();
          }}
          rightSection={brand ? <Text size="xs">{CARD_BRAND_LABELS[brand]}</Text> : null}
          rightSectionWidth={brand === 'amex' ? 120 : 90}
          error={errors.number}
          required
        />
        <SimpleGrid cols={2}>
          <TextInput
            label="Expiry (MM/YY)"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            inputMode="numeric"
            maxLength={7}
            value={expiry}
            onChange={(e) => {
              const v = e.currentTarget.value.replace(/[^\d/]/g, '');
              setExpiry(/^\d{2}$/.test(v) && expiry.length < v.length ? `${v}/` : v);
              edited();
            }}
            error={errors.expiry}
            required
          />
          <TextInput
            label="Security code"
            autoComplete="cc-csc"
            inputMode="numeric"
            maxLength={4}
            value={cvc}
            onChange={(e) => {
              setCvc(e.currentTarget.value.replace(/\D/g, ''));
              edited();
            }}
            error={errors.cvc}
            required
          />
        </SimpleGrid>
        <Checkbox
          label="Save this card for auto-refill (we keep only its brand and last four digits)"
          checked={saveCard}
          onChange={(e) => setSaveCard(e.currentTarget.checked)}
        />
        {errors.card && (
          <Alert color="red" role="alert" title="The card was not charged">
            {errors.card}
          </Alert>
        )}
        {otherError && (
          <Alert color="red" role="alert">
            {errorMessage(pay.error)}
          </Alert>
        )}
        <Group justify="space-between" align="center">
          <Text size="xs" c="dimmed">
            Test cards: 4242 4242 4242 4242 is paid, 4000 0000 0000 0002 is declined.
          </Text>
          <Button type="submit" loading={pay.isPending}>
            Pay {cents !== null ? formatUsd(cents) : ''}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
