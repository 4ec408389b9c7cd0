import { Badge, VisuallyHidden } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useCableState } from '../live/useLive';

/** A connection that is still coming up (first load, a brief reconnect) is not trouble worth showing. */
export const CONNECTION_GRACE_MS = 8000;

/**
 * Says nothing while live updates work: a developer's "connected" badge is noise to a person. Only when the
 * connection has been down longer than the grace period does a notice appear, announced politely.
 */
export function ConnectionIndicator({ graceMs = CONNECTION_GRACE_MS }: { graceMs?: number }) {
  const state = useCableState();
  const [trouble, setTrouble] = useState(false);
  useEffect(() => {
    if (state === 'connected') {
      setTrouble(false);
      return;
    }
    const timer = setTimeout(() => setTrouble(true), graceMs);
    return () => clearTimeout(timer);
  }, [state, graceMs]);
  // The live region is always in the page so that the notice, when it comes, is announced.
  return (
    <div role="status" aria-live="polite" data-state={state}>
      {trouble && (
        <Badge color="yellow" variant="light" leftSection={<IconPlugConnectedX size={14} aria-hidden />}>
          Reconnecting…
          <VisuallyHidden> Live updates are paused until the connection is back.</VisuallyHidden>
        </Badge>
      )}
    </div>
  );
}
