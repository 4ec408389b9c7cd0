import { Alert, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { contactsApi, type NoteT } from '../../api/contacts';
import { callQuery, qk } from '../../api/queries';
import { ConfirmDeleteButton } from '../../components/ConfirmDeleteButton';
import { when } from './format';

function NoteItem({ number, note, onChanged }: { number: number; note: NoteT; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(note.body);
  const save = useMutation({
    mutationFn: () => contactsApi.editNote(number, note.id, body),
    onSuccess: () => {
      setEditing(false);
      onChanged();
    },
  });
  const remove = useMutation({ mutationFn: () => contactsApi.deleteNote(number, note.id), onSuccess: onChanged });
  const error = save.error ?? remove.error;
  return (
    <Paper withBorder p="sm">
      {editing ? (
        <Stack gap="xs">
          <Textarea label="Edit note" value={body} onChange={(e) => setBody(e.currentTarget.value)} rows={3} />
          <Group>
            <Button size="xs" onClick={() => save.mutate()} loading={save.isPending}>
              Save note
            </Button>
            <Button size="xs" variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      ) : (
        <Text style={{ whiteSpace: 'pre-wrap' }}>{note.body}</Text>
      )}
      <Group justify="space-between" mt="xs">
        <Text size="xs" c="dimmed">
          {note.author?.name ?? 'Unknown'} · {when(note.created_at)}
        </Text>
        {!editing && (
          <Group gap="xs">
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => setEditing(true)}
              aria-label={`Edit note ${note.id}`}
            >
              Edit
            </Button>
            <ConfirmDeleteButton
              label={`Delete note ${note.id}`}
              onConfirm={() => remove.mutate()}
              loading={remove.isPending}
            />
          </Group>
        )}
      </Group>
      {error && (
        <Alert color="red" mt="xs">
          {errorMessage(error)}
        </Alert>
      )}
    </Paper>
  );
}

export function NotesPanel({ number, onChanged }: { number: number; onChanged: () => void }) {
  const qc = useQueryClient();
  const key = qk('GET /v1/contacts/{id}/notes', { params: { id: number } });
  const notes = useQuery(callQuery('GET /v1/contacts/{id}/notes', { params: { id: number } }));
  const [body, setBody] = useState('');
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: key });
    onChanged();
  };
  const add = useMutation({
    mutationFn: () => contactsApi.addNote(number, body),
    onSuccess: () => {
      setBody('');
      refresh();
    },
  });
  return (
    <Stack>
      <Textarea label="New note" value={body} onChange={(e) => setBody(e.currentTarget.value)} rows={3} />
      <Group>
        <Button onClick={() => add.mutate()} loading={add.isPending} disabled={!body.trim()}>
          Add note
        </Button>
      </Group>
      {add.error && <Alert color="red">{errorMessage(add.error)}</Alert>}
      {notes.data?.data.length === 0 && <Text c="dimmed">No notes yet.</Text>}
      {notes.data?.data.map((n) => (
        <NoteItem key={`${n.id}-${n.updated_at}`} number={number} note={n} onChanged={refresh} />
      ))}
    </Stack>
  );
}
