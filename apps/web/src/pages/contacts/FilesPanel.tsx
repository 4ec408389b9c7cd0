import { MAX_FILE_BYTES } from '@harbor/shared';
import { Alert, Anchor, Group, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { contactsApi } from '../../api/contacts';
import { callQuery, qk } from '../../api/queries';
import { ConfirmDeleteButton } from '../../components/ConfirmDeleteButton';
import { bytes, when } from './format';

const ACCEPT = '.pdf,.png,.jpg,.jpeg,.gif,.docx,.xlsx,.csv,.txt';

export function FilesPanel({ number, onChanged }: { number: number; onChanged: () => void }) {
  const qc = useQueryClient();
  const key = qk('GET /v1/contacts/{id}/files', { params: { id: number } });
  const files = useQuery(callQuery('GET /v1/contacts/{id}/files', { params: { id: number } }));
  const input = useRef<HTMLInputElement>(null);
  const [tooBig, setTooBig] = useState<string | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: key });
    onChanged();
  };
  const upload = useMutation({
    mutationFn: (f: File) => contactsApi.upload(number, f),
    onSuccess: () => {
      if (input.current) input.current.value = '';
      refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: number) => contactsApi.deleteFile(number, id), onSuccess: refresh });

  function pick(file: File | undefined) {
    setTooBig(null);
    if (!file) return;
    // Checked here too so a big file is not sent at all; the server enforces the same limit.
    if (file.size > MAX_FILE_BYTES)
      return setTooBig(`${file.name} is too large; the limit is ${MAX_FILE_BYTES / 1048576} MB`);
    upload.mutate(file);
  }

  return (
    <Stack>
      <Group>
        <label htmlFor="contact-file-upload">
          <Text size="sm" fw={500}>
            Upload a file
          </Text>
        </label>
        <input
          id="contact-file-upload"
          ref={input}
          type="file"
          accept={ACCEPT}
          onChange={(e) => pick(e.currentTarget.files?.[0])}
        />
        {upload.isPending && <Text size="sm">Uploading…</Text>}
      </Group>
      <Text size="xs" c="dimmed">
        PDF, images, Word, Excel, CSV or text; up to 25 MB.
      </Text>
      {(tooBig || upload.error) && (
        <Alert color="red" role="alert">
          {tooBig ?? errorMessage(upload.error)}
        </Alert>
      )}
      {remove.error && <Alert color="red">{errorMessage(remove.error)}</Alert>}
      {files.data?.data.length === 0 && <Text c="dimmed">No files yet.</Text>}
      {!!files.data?.data.length && (
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="Files">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Uploaded</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {files.data.data.map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td>
                    <Anchor href={`${import.meta.env.VITE_API_URL ?? ''}${f.download_url}`} download={f.name}>
                      {f.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{bytes(f.size)}</Table.Td>
                  <Table.Td>
                    {f.uploaded_by?.name ?? ''} · {when(f.created_at)}
                  </Table.Td>
                  <Table.Td>
                    <ConfirmDeleteButton
                      label={`Delete file ${f.name}`}
                      onConfirm={() => remove.mutate(f.id)}
                      loading={remove.isPending}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
