/** A phone number that calls when clicked (click to call from lists), for people with the dialer; text otherwise. */
import { formatPhone } from '@harbor/shared';
import { Anchor } from '@mantine/core';
import { useCurrentUser } from '../auth/session';
import { phoneShown, requestDial } from './dial';

export function CallLink({ phone, contactNumber }: { phone: string; contactNumber?: number }) {
  const user = useCurrentUser();
  const text = formatPhone(phone);
  if (!phoneShown(user)) return <>{text}</>;
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      aria-label={`Call ${text}`}
      onClick={(e) => {
        e.stopPropagation();
        requestDial(phone, contactNumber);
      }}
    >
      {text}
    </Anchor>
  );
}
