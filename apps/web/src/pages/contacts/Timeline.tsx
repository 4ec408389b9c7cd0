/** The contact's history, newest first, as the server recorded it (contact_events). */
import { Badge, Group, Timeline as MTimeline, Stack, Text } from '@mantine/core';
import type { Contact } from '../../api/contacts';
import { label, when } from './format';

/** One line describing an event's data, for the kinds that carry something worth reading. */
function detail(kind: string, data: Record<string, unknown>): string | null {
  const changes = data.changes as Record<string, { from: unknown; to: unknown }> | undefined;
  if (changes && (kind === 'updated' || kind === 'quick_updated')) {
    return Object.entries(changes)
      .map(
        ([k, v]) =>
          `${label(k.replace(/([A-Z])/g, '_$1').toLowerCase())}: ${v.from ?? '—'} → ${Array.isArray(v.to) ? v.to.length : (v.to ?? '—')}`,
      )
      .join('; ');
  }
  if (kind === 'activity') return `${label(String(data.type))}${data.description ? `: ${data.description}` : ''}`;
  if (kind.startsWith('note_')) return String(data.excerpt ?? data.to ?? data.body ?? '') || null;
  if (kind.startsWith('file_')) return String(data.name ?? '');
  if (kind === 'email_validated') return `${data.email}: ${data.status}`;
  if (kind === 'group_removed' || kind === 'pool_removed') return String(data.name ?? '');
  return null;
}

export function Timeline({ contact }: { contact: Contact }) {
  if (!contact.timeline.length) return <Text c="dimmed">Nothing has happened yet.</Text>;
  return (
    <MTimeline bulletSize={14} lineWidth={2} aria-label="Timeline">
      {contact.timeline.map((e) => (
        <MTimeline.Item
          key={e.id}
          title={
            <Group gap="xs">
              <Badge variant="light" size="sm">
                {label(e.kind)}
              </Badge>
              <Text size="xs" c="dimmed">
                {e.actor?.name ?? 'System'} · {when(e.created_at)}
              </Text>
            </Group>
          }
        >
          <Stack gap={0}>
            {detail(e.kind, e.data) && (
              <Text size="sm" lineClamp={3}>
                {detail(e.kind, e.data)}
              </Text>
            )}
          </Stack>
        </MTimeline.Item>
      ))}
    </MTimeline>
  );
}
