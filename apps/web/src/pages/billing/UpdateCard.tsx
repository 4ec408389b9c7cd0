import { cardDigits, parseExpiry } from '@harbor/shared';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { connectCard } from '../../api/billing';
import { ApiError, errorMessage } from '../../api/client';
import { PageHeading } from '../../components/PageHeading';
import { type CardErrors, CardFields, checkCard, emptyCard } from '../plans/CardFields';
import { ACCOUNT_KEY, cardLine, useAccountInfo } from './shared';

/** /billing/update: our own card form. The number goes to the processor once and is forgotten; we keep brand and last four. */
export function UpdateCard() {
  const info = useAccountInfo();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [card, setCard] = useState(emptyCard());
  const [errors, setErrors] = useState<CardErrors>({});
  const save = useMutation({
    mutationFn: () => {
      const exp = parseExpiry(card.expiry) as { month: number; year: number };
      return connectCard({ number: cardDigits(card.number), exp_month: exp.month, exp_year: exp.year, cvc: card.cvc });
    },
    onSuccess: (data) => {
      queryClient.setQueryData(ACCOUNT_KEY, data);
      const plan = params.get('plan');
      navigate(params.get('next') === 'review' && plan ? `/billing/review?plan=${plan}` : '/billing');
    },
    onError: (err) => {
      if (err instanceof ApiError && err.errors) {
        const e = err.errors;
        setErrors({ number: e.number?.[0], expiry: (e.expiry ?? e.exp_month ?? e.exp_year)?.[0], cvc: e.cvc?.[0] });
      }
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = checkCard(card);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };
  const current = info.data?.payment_infos[0];
  return (
    <Stack maw={520} gap="md">
      <PageHeading title="Update card" section="Billing" />
      {current && <Text size="sm">On file now: {cardLine(current)}.</Text>}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <CardFields value={card} onChange={setCard} errors={errors} />
          <Text size="xs" c="dimmed">
            Visa, Mastercard, American Express or Discover. Harbor keeps only the brand, the last four digits and the
            expiry; the card processor holds the card.
          </Text>
          {save.isError && !(save.error instanceof ApiError && save.error.status === 422) && (
            <Alert color="red">{errorMessage(save.error)}</Alert>
          )}
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save card
            </Button>
            <Button variant="default" component={Link} to="/billing">
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
