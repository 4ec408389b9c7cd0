/** The contact's history, newest first, as the server recorded it (contact_events). */
import { CONTACT_FIELD_LABELS, fieldLabel, optionLabel, SCRUB_KEY_LABELS, type ScrubKey } from '@harbor/shared';
import { Badge, Group, Timeline as MTimeline, Stack, Text } from '@mantine/core';
import type { Contact } from '../../api/contacts';
import { label, when } from './format';

/** One line describing an event's data, for the kinds that carry something worth reading. */
function detail(kind: string, data: Record<string, unknown>): string | null {
  const changes = data.changes as Record<string, { from: unknown; to: unknown }> | undefined;
  if (changes && typeof changes === 'object') {
    // Every change of values (edits, imports, undos, merges) carries old and new: docs/decisions/contact-timeline.md.
    return changeLines(kind, data, changes) || null;
  }
  if (kind === 'activity') return `${label(String(data.type))}${data.description ? `: ${data.description}` : ''}`;
  if (kind.startsWith('note_')) return String(data.excerpt ?? data.to ?? data.body ?? '') || null;
  if (kind.startsWith('file_')) return String(data.name ?? '');
  if (kind === 'email_validated') return `${data.email}: ${data.status}`;
  if (kind === 'group_removed' || kind === 'pool_removed') return String(data.name ?? '');
  return null;
}

const snake = (k: string) => k.replace(/([A-Z])/g, '_$1').toLowerCase();
const show = (v: unknown, field = '') =>
  v === null || v === undefined || v === ''
    ? '—'
    : typeof v === 'object'
      ? JSON.stringify(v)
      : (optionLabel(snake(field), String(v)) ?? String(v));
const fieldName = (k: string) => fieldLabel(snake(k));
const ORDER = Object.keys(CONTACT_FIELD_LABELS);
const byField = <T,>(entries: Array<[string, T]>) =>
  entries.sort(([a], [b]) => (ORDER.indexOf(snake(a)) >>> 0) - (ORDER.indexOf(snake(b)) >>> 0));

function changeLines(
  kind: string,
  data: Record<string, unknown>,
  changes: Record<string, { from: unknown; to: unknown }>,
) {
  const lines = byField(Object.entries(changes)).map(
    ([k, v]) => `${fieldName(k)}: ${show(v.from, k)} → ${Array.isArray(v.to) ? v.to.length : show(v.to, k)}`,
  );
  const tags = (data.tags_added ?? data.tags_removed) as string[] | undefined;
  if (tags?.length) lines.push(`Tags ${data.tags_added ? 'added' : 'removed'}: ${tags.join(', ')}`);
  const skipped = data.skipped as Record<string, { from: unknown; to: unknown }> | undefined;
  if (skipped && Object.keys(skipped).length) {
    lines.push(`Left as changed since: ${Object.keys(skipped).map(fieldName).join(', ')}`);
  }
  // A merge keeps what the merged records held, so nothing they had is lost from view.
  const merged = data.merged as Array<{ number: number; name: string; values: Record<string, unknown> }> | undefined;
  for (const m of merged ?? []) {
    const values = byField(Object.entries(m.values)).map(([k, v]) => `${fieldName(k)} ${show(v, k)}`);
    lines.push(`Merged #${m.number} ${m.name} had: ${values.join(', ')}`);
  }
  if (kind === 'import_updated' && data.same_person === false) {
    const by = SCRUB_KEY_LABELS[data.matched_by as ScrubKey] ?? 'A match';
    lines.push(`${by}, not proven the same person: name, date of birth and Medicare number left alone`);
  }
  return lines.join('\n');
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
              <Text size="sm" lineClamp={8} style={{ whiteSpace: 'pre-line' }}>
                {detail(e.kind, e.data)}
              </Text>
            )}
          </Stack>
        </MTimeline.Item>
      ))}
    </MTimeline>
  );
}
