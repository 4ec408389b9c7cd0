/**
 * How an import's effect on one contact reads: the contact (whose it is), what it matched by, each changed field
 * old -> new, and the file's values it leaves aside and why. Shared by the preview and the result page.
 */
import { type FieldChange, fieldLabel, type KeptField, type MatchedContact, SCRUB_KEY_LABELS } from '@harbor/shared';
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Preview } from '../../api/imports';
import { RecordTable } from '../../components/RecordTable';

type Plan = Preview['changes'][number];

export const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** Badges wrap in narrow cells instead of cutting their words. */
const WRAP = {
  root: { height: 'auto', paddingBlock: 2 },
  label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip' },
} as const;

const labelOf = (field: string) => (field.startsWith('extra.') ? `${field.slice(6)} (extra)` : fieldLabel(field));
const blank = (v: string | null) => (v === null || v === '' ? '(blank)' : v);

export function FieldChanges({ changes, tags = [] }: { changes: FieldChange[]; tags?: string[] }) {
  if (!changes.length && !tags.length) return <Text size="sm">Nothing</Text>;
  return (
    <Stack gap={2}>
      {changes.map((c) => (
        <Text size="sm" key={c.field}>
          <Text span fw={600} size="sm">
            {labelOf(c.field)}
          </Text>
          {': '}
          <Text span size="sm" td="line-through" c="dimmed">
            {blank(c.from)}
          </Text>
          {' → '}
          {blank(c.to)}
        </Text>
      ))}
      {tags.length > 0 && (
        <Text size="sm">
          <Text span fw={600} size="sm">
            Tags
          </Text>
          {`: + ${tags.join(', ')}`}
        </Text>
      )}
    </Stack>
  );
}

const WHY: Record<KeptField['reason'], string> = {
  identity: 'not proven the same person',
  not_blank: 'already filled in',
};

export function KeptFields({ kept }: { kept: KeptField[] }) {
  if (!kept.length) return null;
  return (
    <Stack gap={2}>
      {kept.map((k) => (
        <Text size="sm" key={k.field}>
          <Text span fw={600} size="sm">
            {labelOf(k.field)}
          </Text>
          {` stays ${blank(k.value)} (file: ${k.file_value}): ${WHY[k.reason]}`}
        </Text>
      ))}
    </Stack>
  );
}

export function ContactCell({ contact }: { contact: MatchedContact | null }) {
  if (!contact) {
    return (
      <Text size="sm" c="dimmed">
        A contact outside your book
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      <Anchor component={Link} to={`/contacts/${contact.number}`} size="sm">
        {contact.name} (#{contact.number})
      </Anchor>
      <Group gap={4}>
        <Text size="xs" c="dimmed">
          Owner: {contact.owner?.name ?? 'nobody'}
        </Text>
        {!contact.owned_by_importer && (
          <Badge size="xs" color="orange" variant="light" styles={WRAP}>
            Someone else's
          </Badge>
        )}
      </Group>
    </Stack>
  );
}

export function MatchedBy({ plan }: { plan: Pick<Plan, 'matched_by' | 'same_person'> }) {
  return (
    <Stack gap={2}>
      <Text size="sm">{SCRUB_KEY_LABELS[plan.matched_by]}</Text>
      <Badge size="xs" variant="light" color={plan.same_person ? 'teal' : 'yellow'} styles={WRAP}>
        {plan.same_person ? 'Same person' : 'Maybe someone else'}
      </Badge>
    </Stack>
  );
}

/** A table of matched contacts: what changes on each (or why it is left alone) and which file values stay aside. */
export function MatchesTable(props: { plans: Plan[]; label: string; untouched?: boolean }) {
  return (
    <RecordTable
      label={props.label}
      rows={props.plans}
      rowKey={(p) => p.row}
      minWidth={640}
      columns={[
        { header: 'Row', cell: (p) => p.row },
        { header: 'Contact', cell: (p) => <ContactCell contact={p.contact} /> },
        { header: 'Matched by', cell: (p) => <MatchedBy plan={p} /> },
        props.untouched
          ? { header: 'Why it is left alone', cell: (p) => <Text size="sm">{p.reason}</Text> }
          : { header: 'What changes', cell: (p) => <FieldChanges changes={p.changes} tags={p.tags_added} /> },
        // On a card an empty "not used" entry is noise; in the table the column stays for alignment.
        props.plans.some((p) => p.kept.length > 0) && {
          header: 'File values not used',
          cell: (p) => <KeptFields kept={p.kept} />,
        },
      ]}
    />
  );
}
