/**
 * A small red "Delete" that asks once before it acts: one stray click must not lose a note, a file or a record.
 * `label` is the accessible name of the trigger (e.g. "Delete file quote.pdf"); the question repeats it.
 */
import { Button, Group, Popover, Text } from '@mantine/core';
import { useState } from 'react';

export function ConfirmDeleteButton({
  label,
  onConfirm,
  loading,
  children = 'Delete',
}: {
  label: string;
  onConfirm: () => void;
  loading?: boolean;
  children?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Popover opened={open} onChange={setOpen} position="bottom-end" withArrow shadow="md" trapFocus>
      <Popover.Target>
        <Button size="compact-xs" variant="subtle" color="red" aria-label={label} onClick={() => setOpen((o) => !o)}>
          {children}
        </Button>
      </Popover.Target>
      {/* Mantine gives the dropdown role dialog, named by its trigger ("Delete file quote.pdf"). */}
      <Popover.Dropdown>
        <Text size="sm" mb="xs">
          {label}? This cannot be undone.
        </Text>
        <Group gap="xs" justify="flex-end">
          <Button size="compact-xs" variant="default" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            size="compact-xs"
            color="red"
            loading={loading}
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {children}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
