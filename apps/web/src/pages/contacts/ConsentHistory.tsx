/** The evidence behind the consent record: every change, newest first, with how and who. */
import {
  CONSENT_CHANNEL_LABELS,
  CONSENT_SOURCE_LABELS,
  CONSENT_STATUS_LABELS,
  type ConsentChannel,
  type ConsentEvent,
  type ConsentStatus,
} from '@harbor/shared';
import { List, Text } from '@mantine/core';
import { when } from './format';

const channelLabel = (c: string) =>
  c === 'medicare' ? 'Medicare permission to contact' : (CONSENT_CHANNEL_LABELS[c as ConsentChannel] ?? c);
const statusLabel = (s: string | null) =>
  s === null ? 'nothing' : (CONSENT_STATUS_LABELS[s as ConsentStatus] ?? s).toLowerCase();

export function ConsentHistory({ events }: { events: ConsentEvent[] }) {
  if (!events.length) return <Text size="sm">No consent has been recorded for this contact yet.</Text>;
  return (
    <List size="sm" spacing={4} aria-label="Consent history">
      {events.map((e) => (
        <List.Item key={e.id}>
          <Text span size="sm" fw={600}>
            {when(e.created_at)}
          </Text>{' '}
          {channelLabel(e.channel)}: {statusLabel(e.from_status)} → {statusLabel(e.to_status)}
          {e.sender ? ` (messages from ${e.sender.name} only)` : ''} · {CONSENT_SOURCE_LABELS[e.source]}
          {e.actor ? ` · recorded by ${e.actor.name}` : ''}
          {e.detail ? ` — “${e.detail}”` : ''}
        </List.Item>
      ))}
    </List>
  );
}
