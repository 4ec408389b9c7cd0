import { Badge, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useCableState } from '../live/useLive';

/** "connected" once the notifications subscription is confirmed; anything short of that is "connecting". */
export function ConnectionIndicator() {
  const state = useCableState();
  const connected = state === 'connected';
  const label = connected ? 'connected' : 'connecting';
  // On a phone the header has no room for the word: the coloured dot alone says it (the label stays for readers).
  const compact = useMediaQuery('(max-width: 40em)');
  return (
    <Tooltip label={connected ? 'Live updates are on' : 'Connecting to live updates…'}>
      <Badge
        variant="dot"
        color={connected ? 'teal' : 'gray'}
        role="status"
        aria-label={`Live connection: ${label}`}
        data-state={state}
      >
        {compact ? null : label}
      </Badge>
    </Tooltip>
  );
}
