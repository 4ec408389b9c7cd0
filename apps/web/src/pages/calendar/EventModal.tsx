/**
 * Create or edit one event: title, type, times (in the user's time zone), contact, what an appointment is about,
 * the SOA exception, reminder, place and notes. A refused Medicare Advantage / Part D booking shows the server's
 * reason and the earliest start the 48-hour rule allows, and offers the exceptions.
 */
import {
  type CalendarEvent,
  coveredByRule,
  EVENT_TYPE_LABELS,
  EVENT_TYPES,
  type EventType,
  SOA_EXCEPTION_LABELS,
  SOA_EXCEPTIONS,
  SOA_PRODUCT_LABELS,
  SOA_PRODUCTS,
  type SoaException,
  type SoaProduct,
} from '@harbor/shared';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { createEvent, deleteEvent, updateEvent } from '../../api/events';
import { useCurrentUser } from '../../auth/session';
import { ConfirmDeleteButton } from '../../components/ConfirmDeleteButton';
import { ContactPicker, type PickedContact } from '../../components/ContactPicker';
import { dateTimeLabel, fromLocalInput, toLocalInput, zoneOf } from './calendarDates';

export interface EventDefaults {
  start_at: string;
  end_at: string;
  type?: EventType;
  title?: string;
  contact?: PickedContact | null;
  /** Whose calendar (a manager booking for someone in their downline). */
  user_id?: number;
}

const REMINDERS = [
  { value: '', label: 'No reminder' },
  { value: '0', label: 'At the start' },
  { value: '10', label: '10 minutes before' },
  { value: '30', label: '30 minutes before' },
  { value: '60', label: '1 hour before' },
  { value: '1440', label: '1 day before' },
];

export function EventModal({
  opened,
  onClose,
  event,
  defaults,
  onSaved,
}: {
  opened: boolean;
  onClose: () => void;
  event?: CalendarEvent | null;
  defaults?: EventDefaults;
  onSaved: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={event ? 'Edit event' : 'New event'} size="lg">
      {opened && <EventForm event={event ?? null} defaults={defaults} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function EventForm({
  event,
  defaults,
  onClose,
  onSaved,
}: {
  event: CalendarEvent | null;
  defaults?: EventDefaults;
  onClose: () => void;
  onSaved: () => void;
}) {
  const zone = zoneOf(useCurrentUser());
  const [title, setTitle] = useState(event?.title ?? defaults?.title ?? '');
  const [type, setType] = useState<EventType>(event?.type ?? defaults?.type ?? 'follow_up');
  const [start, setStart] = useState(toLocalInput(event?.start_at ?? defaults!.start_at, zone));
  const [end, setEnd] = useState(toLocalInput(event?.end_at ?? defaults!.end_at, zone));
  const [allDay, setAllDay] = useState(event?.all_day ?? false);
  const [contact, setContact] = useState<PickedContact | null>(event?.contact ?? defaults?.contact ?? null);
  const [products, setProducts] = useState<string[]>(event?.products ?? []);
  const [exception, setException] = useState<SoaException | null>(event?.soa_exception ?? null);
  const [reminder, setReminder] = useState(event?.reminder_minutes == null ? '' : String(event.reminder_minutes));
  const [reminderEmail, setReminderEmail] = useState(event?.reminder_email ?? false);
  const [location, setLocation] = useState(event?.location ?? '');
  const [description, setDescription] = useState(event?.description ?? '');

  const save = useMutation({
    mutationFn: () => {
      const startAt = fromLocalInput(start, zone);
      const endAt = fromLocalInput(end, zone);
      if (!startAt || !endAt) throw new ApiError(422, { errors: { start_at: ['Pick a start and an end.'] } }, null);
      const body = {
        title: title.trim(),
        type,
        start_at: startAt,
        end_at: endAt,
        all_day: allDay,
        contact_id: contact?.id ?? null,
        products: type === 'appointment' ? (products as SoaProduct[]) : [],
        soa_exception: type === 'appointment' && coveredByRule(products) ? exception : null,
        reminder_minutes: reminder === '' ? null : Number(reminder),
        reminder_email: reminder !== '' && reminderEmail,
        location: location.trim() || null,
        description: description.trim() || null,
      };
      if (event) return updateEvent(event.id, body);
      return createEvent({ ...body, ...(defaults?.user_id ? { user_id: defaults.user_id } : {}) });
    },
    onSuccess: () => {
      onSaved();
      onClose();
    },
  });
  const done = useMutation({
    mutationFn: () => updateEvent(event!.id, { done: !event!.done }),
    onSuccess: () => {
      onSaved();
      onClose();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteEvent(event!.id),
    onSuccess: () => {
      onSaved();
      onClose();
    },
  });

  const errors = save.error instanceof ApiError ? save.error.body.errors : {};
  const soaReason = errors.soa?.[0];
  const earliest = errors.earliest_start_at?.[0];
  const fieldError = (k: string) => errors[k]?.[0];
  const ruled = type === 'appointment' && coveredByRule(products);

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Title"
          required
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={fieldError('title')}
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Type"
            data={EVENT_TYPES.map((t) => ({ value: t, label: EVENT_TYPE_LABELS[t] }))}
            value={type}
            onChange={(v) => v && setType(v as EventType)}
            allowDeselect={false}
          />
          <Select label="Reminder" data={REMINDERS} value={reminder} onChange={(v) => setReminder(v ?? '')} />
          <TextInput
            label="Starts"
            type="datetime-local"
            required
            value={start}
            onChange={(e) => setStart(e.currentTarget.value)}
            error={fieldError('start_at')}
          />
          <TextInput
            label="Ends"
            type="datetime-local"
            required
            value={end}
            onChange={(e) => setEnd(e.currentTarget.value)}
            error={fieldError('end_at')}
          />
        </SimpleGrid>
        <Group gap="lg">
          <Checkbox label="All day" checked={allDay} onChange={(e) => setAllDay(e.currentTarget.checked)} />
          {reminder !== '' && (
            <Checkbox
              label="Email me the reminder too"
              checked={reminderEmail}
              onChange={(e) => setReminderEmail(e.currentTarget.checked)}
            />
          )}
        </Group>
        <ContactPicker
          label="Contact"
          value={contact?.id ?? null}
          current={contact}
          onChange={setContact}
          error={fieldError('contact_id')}
        />
        {type === 'appointment' && (
          <MultiSelect
            label="Products to discuss"
            placeholder={products.length ? undefined : 'Pick the products'}
            description="Medicare Advantage and Part D need the contact's signed scope of appointment, 48 hours ahead."
            data={SOA_PRODUCTS.map((p) => ({ value: p, label: SOA_PRODUCT_LABELS[p] }))}
            value={products}
            onChange={setProducts}
          />
        )}
        {ruled && (
          <Select
            label="Exception to the 48-hour rule"
            clearable
            placeholder="None: the appointment is 48 hours or more after the signature"
            data={SOA_EXCEPTIONS.map((x) => ({ value: x, label: SOA_EXCEPTION_LABELS[x] }))}
            value={exception}
            onChange={(v) => setException(v as SoaException | null)}
          />
        )}
        {soaReason && (
          <Alert color="orange" title="This appointment cannot be booked yet" role="alert">
            {soaReason}
            {earliest && ` The earliest start allowed is ${dateTimeLabel(earliest, zone)}.`}
          </Alert>
        )}
        <TextInput label="Location" value={location} onChange={(e) => setLocation(e.currentTarget.value)} />
        <Textarea
          label="Notes"
          autosize
          minRows={2}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        {save.isError && !soaReason && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Group justify="space-between">
          <Group gap="xs">
            {event && (
              <>
                <Button variant="light" onClick={() => done.mutate()} loading={done.isPending}>
                  {event.done ? 'Mark not done' : 'Mark done'}
                </Button>
                <ConfirmDeleteButton
                  label={`Delete event ${event.title}`}
                  onConfirm={() => remove.mutate()}
                  loading={remove.isPending}
                />
              </>
            )}
          </Group>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save event
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
