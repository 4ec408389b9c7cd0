/**
 * A table of records that reads on a phone: from 48em up, a table (scrolling inside its own box if it must); below,
 * one card per record whose cells are labelled by their column's header, so nothing hides behind a sideways scroll
 * and no row grows tall around one narrow column.
 */
import { Card, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';

export interface RecordColumn<R> {
  header: string;
  cell: (row: R) => ReactNode;
  /** Money and counts read best right-aligned in the table (the cards stack them under their label). */
  align?: 'right';
}

export function RecordTable<R>(props: {
  /** The accessible name of the table (or of the list of cards). */
  label: string;
  rows: R[];
  rowKey: (row: R) => string | number;
  columns: Array<RecordColumn<R> | false>;
  /** The width under which the table scrolls inside its box instead of squeezing its columns. */
  minWidth: number;
  striped?: boolean;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const columns = props.columns.filter((c): c is RecordColumn<R> => !!c);
  if (phone) {
    return (
      <Stack gap="xs" component="ul" aria-label={props.label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {props.rows.map((r) => (
          <Card key={props.rowKey(r)} withBorder padding="sm" component="li">
            <Stack gap={6} component="dl" m={0}>
              {columns.map((c) => (
                <div key={c.header}>
                  <Text component="dt" size="xs" c="dimmed" fw={600}>
                    {c.header}
                  </Text>
                  <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                    {c.cell(r)}
                  </Text>
                </div>
              ))}
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={props.minWidth}>
      <Table aria-label={props.label} striped={props.striped} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.header} ta={c.align}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.rows.map((r) => (
            <Table.Tr key={props.rowKey(r)}>
              {columns.map((c) => (
                <Table.Td key={c.header} ta={c.align}>
                  {c.cell(r)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
