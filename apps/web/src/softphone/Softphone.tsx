/**
 * The floating, draggable softphone (spec §2): a launcher button (in the header at phone width), then a panel with Keypad and Recent while idle,
 * Call and Keypad during a call, the incoming view (Accept, Reject) and the active view (Dialpad, Recording,
 * Mute/Unmute, Hangup, and the TPMO disclaimer). Loaded after the shell renders (AppLayout), never on a page's
 * first download.
 */

import { formatPhone } from '@harbor/shared';
import { ActionIcon, Alert, Badge, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconGripVertical, IconPhone, IconX } from '@tabler/icons-react';
import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useNavigate } from 'react-router';
import {
  accept,
  dial,
  hangup,
  playDisclaimer,
  reject,
  sendDigit,
  startPhone,
  toggleMute,
  toggleRecording,
} from './controller';
import { PHONE_SLOT_ID } from './dial';
import { DialKeypad, DtmfPad } from './Keypad';
import { RecentCalls } from './RecentCalls';
import { mmss, type PhoneState, setPhone, usePhone } from './store';

function useSeconds(since: number | null) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!since) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [since]);
  return since ? Math.floor((now - since) / 1000) : 0;
}

function DragHandle({ s }: { s: PhoneState }) {
  const start = useRef<{ x: number; y: number; right: number; bottom: number } | null>(null);
  const clamp = (v: number, max: number) => Math.min(Math.max(0, v), Math.max(0, max));
  const move = (right: number, bottom: number) =>
    setPhone({ right: clamp(right, window.innerWidth - 120), bottom: clamp(bottom, window.innerHeight - 80) });
  return (
    <ActionIcon
      variant="subtle"
      aria-label="Move the phone (arrow keys)"
      style={{ cursor: 'grab', touchAction: 'none' }}
      onPointerDown={(e: PointerEvent) => {
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
        start.current = { x: e.clientX, y: e.clientY, right: s.right, bottom: s.bottom };
      }}
      onPointerMove={(e: PointerEvent) => {
        const st = start.current;
        if (st) move(st.right - (e.clientX - st.x), st.bottom - (e.clientY - st.y));
      }}
      onPointerUp={() => {
        start.current = null;
      }}
      onKeyDown={(e: KeyboardEvent) => {
        const step = 16;
        const d = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[e.key];
        if (!d) return;
        e.preventDefault();
        move(s.right + d[0], s.bottom + d[1]);
      }}
    >
      <IconGripVertical size={18} aria-hidden />
    </ActionIcon>
  );
}

function InCall({ s }: { s: PhoneState }) {
  const seconds = useSeconds(s.phase === 'active' ? s.answeredAt : null);
  const call = s.call;
  const who = call?.contact?.name ?? formatPhone(s.number);
  const status = s.phase === 'active' ? mmss(seconds) : s.phase === 'ringing' ? 'Ringing…' : 'Connecting…';
  return (
    <Stack gap="xs">
      <SegmentedControl
        fullWidth
        value={s.callTab}
        onChange={(v) => setPhone({ callTab: v as PhoneState['callTab'] })}
        data={[
          { value: 'call', label: 'Call' },
          { value: 'keypad', label: 'Keypad' },
        ]}
        aria-label="Call view"
      />
      <div>
        <Text fw={600} truncate>
          {who}
        </Text>
        <Text size="sm" c="dimmed" aria-live="polite">
          <span data-testid="call-counter">{status}</span>
          {s.maxSeconds ? ` · up to ${mmss(s.maxSeconds)}` : ''}
        </Text>
      </div>
      {s.callTab === 'keypad' ? (
        <DtmfPad sent={s.dtmf} onDigit={sendDigit} />
      ) : (
        <>
          <Group gap={6} grow>
            <Button variant="default" onClick={() => setPhone({ callTab: 'keypad' })}>
              Dialpad
            </Button>
            <Button variant="default" onClick={toggleMute} aria-pressed={s.muted}>
              {s.muted ? 'Unmute' : 'Mute'}
            </Button>
          </Group>
          {/* One per row: side by side, 'Resume recording' and 'Play disclaimer' were cut off in the 300 px panel. */}
          <Stack gap={6}>
            {/* A call the account does not record (the Record calls setting) has nothing to pause or resume. */}
            {call?.recording !== 'off' && (
              <Button
                variant="default"
                onClick={toggleRecording}
                disabled={s.phase !== 'active' || !call}
                loading={s.busy}
                aria-pressed={call?.recording === 'recording'}
              >
                {call?.recording === 'recording' ? 'Pause recording' : 'Resume recording'}
              </Button>
            )}
            <Button variant="default" onClick={playDisclaimer} disabled={s.phase !== 'active' || !call}>
              Play disclaimer
            </Button>
          </Stack>
          <Group gap="xs">
            <Badge variant="light" color={call?.recording === 'recording' ? 'red' : 'gray'}>
              {call?.recording === 'recording'
                ? 'Recording'
                : call?.recording === 'off'
                  ? 'Not recorded'
                  : 'Not recording'}
            </Badge>
            {call?.disclaimer_played_at_s != null && (
              <Badge variant="light" color="green">
                Disclaimer at {mmss(call.disclaimer_played_at_s)}
              </Badge>
            )}
          </Group>
        </>
      )}
      <Button color="red" onClick={hangup}>
        Hangup
      </Button>
    </Stack>
  );
}

function IncomingView({ s }: { s: PhoneState }) {
  const matches = s.incoming?.contact_numbers.length ?? 0;
  return (
    <Stack gap="xs" role="alertdialog" aria-label="Incoming call">
      <Text fw={600}>Incoming call</Text>
      <Text>{formatPhone(s.number)}</Text>
      <Text size="sm" c="dimmed">
        {matches === 1
          ? 'A contact of yours'
          : matches > 1
            ? `${matches} contacts have this number`
            : 'Not in your contacts'}
      </Text>
      <Group grow>
        <Button color="green" onClick={accept}>
          Accept
        </Button>
        <Button color="red" variant="light" onClick={reject}>
          Reject
        </Button>
      </Group>
    </Stack>
  );
}

function Idle({ s }: { s: PhoneState }) {
  return (
    <Stack gap="xs">
      <SegmentedControl
        fullWidth
        value={s.idleTab}
        onChange={(v) => setPhone({ idleTab: v as PhoneState['idleTab'] })}
        data={[
          { value: 'keypad', label: 'Keypad' },
          { value: 'recent', label: 'Recent' },
        ]}
        aria-label="Phone view"
      />
      {s.idleTab === 'keypad' ? (
        <DialKeypad
          number={s.number}
          onChange={(number) => setPhone({ number, contactNumber: null, error: null })}
          onCall={() => void dial(s.number, s.contactNumber ?? undefined)}
          busy={s.busy}
        />
      ) : (
        <RecentCalls onPick={(number) => setPhone({ number, contactNumber: null, idleTab: 'keypad' })} />
      )}
    </Stack>
  );
}

export function Softphone() {
  const s = usePhone();
  const navigate = useNavigate();
  const nav = useRef(navigate);
  nav.current = navigate;
  useEffect(() => startPhone((to) => nav.current(to)), []);
  // At phone width the closed phone is a button in the header: floating, it would sit on the page's content.
  const narrow = useMediaQuery('(max-width: 48em)');
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useEffect(() => setSlot(document.getElementById(PHONE_SLOT_ID)), []);
  if (s.token?.hidden) return null;
  const launcher = (size: number) => (
    <ActionIcon
      size={size}
      radius="xl"
      color={s.phase === 'incoming' ? 'green' : undefined}
      aria-label="Open the phone"
      onClick={() => setPhone({ open: true })}
    >
      <IconPhone size={Math.round(size / 2)} aria-hidden />
    </ActionIcon>
  );
  if (!s.open && narrow && slot) return createPortal(launcher(36), slot);
  const notice = s.token && (s.token.provider === 'none' || !s.token.enabled) ? s.token.message : null;
  return (
    <div style={{ position: 'fixed', right: s.right, bottom: s.bottom, zIndex: 190 }}>
      {s.open ? (
        <Paper
          shadow="lg"
          withBorder
          p="sm"
          w={300}
          maw="calc(100vw - 16px)"
          mah="calc(100dvh - 32px)"
          style={{ overflowY: 'auto' }}
          role="dialog"
          aria-label="Phone"
        >
          <Group justify="space-between" mb="xs" wrap="nowrap">
            <Group gap={4} wrap="nowrap">
              <DragHandle s={s} />
              <Text fw={600}>Phone</Text>
              <Badge size="xs" variant="light" color={s.device === 'READY' ? 'green' : 'gray'}>
                {s.device === 'READY' ? 'Ready' : 'Offline'}
              </Badge>
            </Group>
            <ActionIcon variant="subtle" aria-label="Close the phone" onClick={() => setPhone({ open: false })}>
              <IconX size={18} aria-hidden />
            </ActionIcon>
          </Group>
          <Stack gap="xs">
            {notice && (
              <Alert color="yellow" p="xs" role="status">
                {notice}
              </Alert>
            )}
            {s.error && !notice?.startsWith(s.error) && (
              <Alert color="red" p="xs" role="alert">
                {s.error}
              </Alert>
            )}
            {s.warning && (
              <Alert color="orange" p="xs" role="alert">
                {s.warning}
              </Alert>
            )}
            {s.phase === 'idle' ? <Idle s={s} /> : s.phase === 'incoming' ? <IncomingView s={s} /> : <InCall s={s} />}
          </Stack>
        </Paper>
      ) : (
        launcher(52)
      )}
    </div>
  );
}
