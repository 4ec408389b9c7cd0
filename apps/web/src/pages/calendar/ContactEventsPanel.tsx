/**
 * A contact's calendar (GET /v1/events/contact_events): their events, newest first, with "Book follow-up" and
 * "New appointment" (the event dialog with the contact filled in) and, when SOA requests are on, "Send scope of
 * appointment". The contact's own Medicare dates (turning 65, IEP, Medigap open enrollment) sit on top.
 */

import {
  type CalendarEvent,
  type ContactDetail,
  EVENT_TYPE_LABELS,
  type EventType,
  featureGateOpen,
  medicareProfile,
  PERIOD_LABELS,
} from '@harbor/shared';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery, qkUnder } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { subjectOf } from '../../layout/nav';
import { SendSoaModal } from '../soa/SendSoaModal';
import { dateTimeLabel, dayLabel, nextQuarterHour, zoneOf } from './calendarDates';
import { type EventDefaults, EventModal } from './EventModal';

export function ContactEventsPanel({ contact }: { contact: ContactDetail }) {
  const user = useCurrentUser();
  const zone = zoneOf(user);
  const qc = useQueryClient();
  const events = useQuery(callQuery('GET /v1/events/contact_events', { query: { contact_id: contact.id } }));
  const [editing, setEditing] = useState<CalendarEvent | null>(null);
  const [creating, setCreating] = useState<EventDefaults | null>(null);
  const [soa, setSoa] = useState(false);
  const name = `${contact.first_name} ${contact.last_name}`.trim() || `Contact #${contact.number}`;
  const picked = { id: contact.id, number: contact.number, name };
  const book = (type: EventType, title: string) => {
    const start = nextQuarterHour();
    setCreating({
      start_at: start,
      end_at: new Date(new Date(start).getTime() + 30 * 60_000).toISOString(),
      type,
      title,
      contact: picked,
    });
  };
  const profile = medicareProfile({ dateOfBirth: contact.date_of_birth, partBEffective: contact.part_b_effective });
  const soaOpen = featureGateOpen(subjectOf(user), 'soa_requests');
  const refresh = () => {
    void qc.invalidateQueries(qkUnder('/v1/events'));
    void qc.invalidateQueries(qkUnder('/v1/contacts/{id}', { params: { id: contact.number } }));
  };
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Button onClick={() => book('follow_up', `Follow up with ${name}`)}>Book follow-up</Button>
        <Button variant="default" onClick={() => book('appointment', `Appointment with ${name}`)}>
          New appointment
        </Button>
        {soaOpen && (
          <Button variant="default" onClick={() => setSoa(true)}>
            Send scope of appointment
          </Button>
        )}
      </Group>
      {profile && (
        <Paper withBorder p="sm" component="section" aria-label="Medicare dates">
          <Group gap="lg">
            <Text size="sm">
              <b>Turns 65:</b> {dayLabel(profile.turning65, { month: 'short', day: 'numeric', year: 'numeric' })}
            </Text>
            <Text size="sm">
              <b>{PERIOD_LABELS.iep}:</b> {dayLabel(profile.iep.start, { month: 'short', year: 'numeric' })} –{' '}
              {dayLabel(profile.iep.end, { month: 'short', year: 'numeric' })}
            </Text>
            {profile.medigapOe && (
              <Text size="sm">
                <b>{PERIOD_LABELS.medigap_oe}:</b>{' '}
                {dayLabel(profile.medigapOe.start, { month: 'short', year: 'numeric' })} –{' '}
                {dayLabel(profile.medigapOe.end, { month: 'short', year: 'numeric' })}
              </Text>
            )}
          </Group>
        </Paper>
      )}
      {events.isPending && <Loader aria-label="Loading the contact's events" />}
      {events.isError && (
        <Alert color="red" role="alert">
          {errorMessage(events.error)}
        </Alert>
      )}
      {events.data?.data.length === 0 && <Text c="dimmed">No events with this contact yet.</Text>}
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {(events.data?.data ?? []).map((e) => (
          <Paper key={e.id} component="li" withBorder p="xs">
            <Group justify="space-between" wrap="nowrap">
              <div>
                <Button variant="subtle" size="compact-sm" px={0} onClick={() => setEditing(e)}>
                  {e.title}
                </Button>
                <Text size="xs" c="dimmed">
                  {dateTimeLabel(e.start_at, zone)} · {EVENT_TYPE_LABELS[e.type]} · {e.user.name}
                </Text>
              </div>
              {e.done && (
                <Badge color="green" variant="light">
                  Done
                </Badge>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
      <EventModal
        opened={editing !== null || creating !== null}
        event={editing}
        defaults={creating ?? undefined}
        onClose={() => {
          setEditing(null);
          setCreating(null);
        }}
        onSaved={refresh}
      />
      {soaOpen && <SendSoaModal opened={soa} onClose={() => setSoa(false)} contact={picked} />}
    </Stack>
  );
}
