/**
 * A card for a plan purchase, in our own form (as the wallet's top-up: Stripe.js cannot load offline). The number
 * goes to the processor's card endpoint only when the person confirms, and is forgotten; the purchase sends the
 * processor's card id.
 */
import {
  CARD_BRAND_LABELS,
  cardBrand,
  cardDigits,
  cvcValid,
  formatCardNumber,
  luhnValid,
  parseExpiry,
} from '@harbor/shared';
import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { tokenizeCard } from '../../api/wallet';

export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}
export type CardErrors = Partial<Record<keyof CardInput, string>>;

export const emptyCard = (): CardInput => ({ number: '', expiry: '', cvc: '' });

export function checkCard(c: CardInput): CardErrors {
  const e: CardErrors = {};
  if (!luhnValid(c.number)) e.number = 'Enter a valid card number.';
  const exp = parseExpiry(c.expiry);
  if ('error' in exp) e.expiry = exp.error === 'past' ? 'This card has expired.' : 'Enter the expiry as MM/YY.';
  if (!cvcValid(c.cvc, cardBrand(c.number))) e.cvc = 'Enter the security code on the card.';
  return e;
}

/** The processor's id of the card (after checkCard passed). */
export async function cardId(c: CardInput) {
  const exp = parseExpiry(c.expiry) as { month: number; year: number };
  const pm = await tokenizeCard({ number: cardDigits(c.number), exp_month: exp.month, exp_year: exp.year, cvc: c.cvc });
  return pm.id;
}

export function CardFields({
  value,
  onChange,
  errors,
}: {
  value: CardInput;
  onChange: (c: CardInput) => void;
  errors: CardErrors;
}) {
  const brand = cardBrand(value.number);
  return (
    <Stack gap="xs">
      <TextInput
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        value={value.number}
        onChange={(e) => onChange({ ...value, number: formatCardNumber(e.currentTarget.value) })}
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
          value={value.expiry}
          onChange={(e) => {
            const v = e.currentTarget.value.replace(/[^\d/]/g, '');
            onChange({ ...value, expiry: /^\d{2}$/.test(v) && value.expiry.length < v.length ? `${v}/` : v });
          }}
          error={errors.expiry}
          required
        />
        <TextInput
          label="Security code"
          autoComplete="cc-csc"
          inputMode="numeric"
          maxLength={4}
          value={value.cvc}
          onChange={(e) => onChange({ ...value, cvc: e.currentTarget.value.replace(/\D/g, '') })}
          error={errors.cvc}
          required
        />
      </SimpleGrid>
    </Stack>
  );
}
