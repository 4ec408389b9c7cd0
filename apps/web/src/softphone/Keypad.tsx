/** The keypad (spec §2: 0-9, +, * and reset, a call button and backspace) and the in-call DTMF pad (0-9, # and *). */
import { ActionIcon, Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import { IconBackspace, IconPhone } from '@tabler/icons-react';

const DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];

export function DigitGrid({ keys, onKey, label }: { keys: string[]; onKey: (k: string) => void; label: string }) {
  return (
    <SimpleGrid cols={3} spacing={6} role="group" aria-label={label}>
      {keys.map((k) => (
        <Button key={k} variant="default" size="md" onClick={() => onKey(k)} aria-label={k === '*' ? 'star' : k}>
          {k}
        </Button>
      ))}
    </SimpleGrid>
  );
}

export function DialKeypad(props: {
  number: string;
  onChange: (n: string) => void;
  onCall: () => void;
  busy: boolean;
}) {
  const { number, onChange } = props;
  const keys = [...DIGITS.slice(0, 11), '+'];
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onCall();
      }}
    >
      <TextInput
        label="Number to call"
        value={number}
        onChange={(e) => onChange(e.currentTarget.value)}
        inputMode="tel"
        autoComplete="off"
        mb="xs"
        rightSection={
          <ActionIcon variant="subtle" aria-label="Backspace" onClick={() => onChange(number.slice(0, -1))}>
            <IconBackspace size={18} aria-hidden />
          </ActionIcon>
        }
      />
      <DigitGrid keys={keys} onKey={(k) => onChange(number + k)} label="Keypad" />
      <Group mt="xs" grow>
        <Button variant="default" onClick={() => onChange('')}>
          Reset
        </Button>
        <Button type="submit" color="green" leftSection={<IconPhone size={16} aria-hidden />} loading={props.busy}>
          Call
        </Button>
      </Group>
    </form>
  );
}

export function DtmfPad({ sent, onDigit }: { sent: string; onDigit: (d: string) => void }) {
  return (
    <>
      <TextInput label="Tones sent" value={sent} readOnly mb="xs" />
      <DigitGrid keys={DIGITS} onKey={onDigit} label="Dialpad" />
    </>
  );
}
