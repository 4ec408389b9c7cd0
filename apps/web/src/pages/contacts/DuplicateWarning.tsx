/**
 * While a new contact is typed in, says so when its phone or email is already in the book (POST
 * /v1/contacts/duplicate_check): the person can open the existing contact instead, or create anyway.
 */

import { normalizePhone } from '@harbor/shared';
import { Alert, Anchor, List, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { callQuery } from '../../api/queries';

const looksLikeEmail = (s: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.trim());

export function useDuplicateCheck(phone: string, email: string) {
  const [values] = useDebouncedValue({ phone: normalizePhone(phone) ?? '', email: email.trim() }, 400);
  const body = {
    ...(values.phone ? { phone: values.phone } : {}),
    ...(looksLikeEmail(values.email) ? { email: values.email } : {}),
  };
  return useQuery({
    ...callQuery('POST /v1/contacts/duplicate_check', { body }),
    enabled: Object.keys(body).length > 0,
    staleTime: 30_000,
  });
}

export function DuplicateWarning({ phone, email }: { phone: string; email: string }) {
  const check = useDuplicateCheck(phone, email);
  const reply = check.data;
  const found = !!reply && (reply.matches.length > 0 || reply.hidden_count > 0);
  return (
    // Always present, so the warning is announced when it appears.
    <div role="status" aria-live="polite">
      {found && (
        <Alert color="yellow" title="This may be a contact you already have">
          {reply.matches.length > 0 && (
            <List size="sm" spacing={2}>
              {reply.matches.map((m) => (
                <List.Item key={m.id}>
                  <Anchor component={Link} to={`/contacts/${m.number}`}>
                    {m.name} (#{m.number})
                  </Anchor>{' '}
                  has the same {m.matched_on.join(' and ')}
                  {m.owner ? ` · owner ${m.owner.name}` : ''}
                </List.Item>
              ))}
            </List>
          )}
          {reply.hidden_count > 0 && (
            <Text size="sm" mt={reply.matches.length ? 'xs' : 0}>
              {reply.hidden_count === 1
                ? 'A contact you cannot see (someone else’s) has the same phone or email.'
                : `${reply.hidden_count} contacts you cannot see (someone else’s) have the same phone or email.`}
            </Text>
          )}
          <Text size="sm" mt="xs">
            Open the existing contact to update it, or create this one anyway.
          </Text>
        </Alert>
      )}
    </div>
  );
}
