/**
 * How an import's effect on one contact reads: the contact (whose it is), what it matched by, each changed field
 * old -> new, and the file's values it leaves aside and why. Shared by the preview and the result page.
 */
import { type FieldChange, fieldLabel, type KeptField, type MatchedContact, SCRUB_KEY_LABELS } from '@harbor/shared';
import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Preview } from '../../api/imports';

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
    <Table.ScrollContainer minWidth={640}>
      <Table aria-label={props.label} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Row</Table.Th>
            <Table.Th>Contact</Table.Th>
            <Table.Th>Matched by</Table.Th>
            <Table.Th>{props.untouched ? 'Why it is left alone' : 'What changes'}</Table.Th>
            <Table.Th>File values not used</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.plans.map((p) => (
            <Table.Tr key={p.row}>
              <Table.Td>{p.row}</Table.Td>
              <Table.Td>
                <ContactCell contact={p.contact} />
              </Table.Td>
              <Table.Td>
                <MatchedBy plan={p} />
              </Table.Td>
              <Table.Td>
                {props.untouched ? (
                  <Text size="sm">{p.reason}</Text>
                ) : (
                  <FieldChanges changes={p.changes} tags={p.tags_added} />
                )}
              </Table.Td>
              <Table.Td>
                <KeptFields kept={p.kept} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
