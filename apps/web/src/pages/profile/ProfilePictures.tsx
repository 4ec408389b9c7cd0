/** Personal photo and logo on the profile tab: preview, upload (checked again by the server) and remove. */
import { IMAGE_KINDS, MAX_IMAGE_BYTES } from '@harbor/shared';
import { Alert, Avatar, Button, FileButton, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { updateProfile, uploadProfileImage } from '../../api/people';
import { useCurrentUser, useUserMutation } from '../../auth/session';

type Field = 'personal_photo' | 'logo';
const ACCEPT = Object.values(IMAGE_KINDS).join(',');
const LIMIT_MB = MAX_IMAGE_BYTES / 1024 / 1024;

function Picture({ field, label }: { field: Field; label: string }) {
  const user = useCurrentUser();
  const src = user.profile[field];
  const [tooBig, setTooBig] = useState(false);
  const upload = useUserMutation((file: File) => uploadProfileImage(field, file));
  const remove = useUserMutation(() => updateProfile({ [field]: null }));
  const error = upload.error ?? remove.error;
  return (
    <Paper withBorder p="sm" radius="md" aria-label={label} component="section">
      <Stack gap="xs" align="flex-start">
        <Text fw={500} size="sm">
          {label}
        </Text>
        {field === 'personal_photo' ? (
          <Avatar src={src} size={72} radius="xl" alt={src ? 'Your photo' : ''}>
            {`${user.profile.first_name[0] ?? ''}${user.profile.last_name[0] ?? ''}`.toUpperCase()}
          </Avatar>
        ) : src ? (
          <Image src={src} h={72} w="auto" fit="contain" alt="Your logo" />
        ) : (
          <Text size="sm" c="dimmed" h={72}>
            No logo yet
          </Text>
        )}
        <Group gap="xs">
          <FileButton
            accept={ACCEPT}
            onChange={(file) => {
              if (!file) return;
              setTooBig(file.size > MAX_IMAGE_BYTES);
              if (file.size <= MAX_IMAGE_BYTES) upload.mutate(file);
            }}
          >
            {(props) => (
              <Button {...props} size="xs" variant="light" loading={upload.isPending}>
                {src ? `Change ${label.toLowerCase()}` : `Upload ${label.toLowerCase()}`}
              </Button>
            )}
          </FileButton>
          {src && (
            <Button size="xs" variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              Remove {label.toLowerCase()}
            </Button>
          )}
        </Group>
        {tooBig && (
          <Alert color="red" role="alert" p="xs">
            The file is larger than {LIMIT_MB} MB.
          </Alert>
        )}
        {error && !tooBig && (
          <Alert color="red" role="alert" p="xs">
            {errorMessage(error)}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

export function ProfilePictures() {
  return (
    <Stack gap={4} maw={560}>
      <Group align="stretch" grow>
        <Picture field="personal_photo" label="Photo" />
        <Picture field="logo" label="Logo" />
      </Group>
      <Text size="xs" c="dimmed">
        PNG, JPEG, GIF or WebP, at most {LIMIT_MB} MB. Colleagues in your company see your photo.
      </Text>
    </Stack>
  );
}
