import { Anchor, CloseButton, Group, Loader, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useProcessNotification } from '../stores/processNotification';

/** The fixed bottom-right card of spec §4, driven by useProcessNotification(). */
export function ProcessNotificationCard() {
  const n = useProcessNotification();
  if (!n.visible) return null;
  const external = n.linkUrl ? /^https?:\/\//.test(n.linkUrl) : false;
  return (
    <Paper
      shadow="lg"
      withBorder
      p="sm"
      radius="md"
      role="status"
      aria-live="polite"
      aria-label="Process notification"
      style={{ position: 'fixed', right: 16, bottom: 16, width: 'min(360px, calc(100vw - 32px))', zIndex: 300 }}
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        {n.status === 'processing' && <Loader size="sm" aria-label="In progress" />}
        {n.status === 'success' && (
          <ThemeIcon color="teal" radius="xl" size="sm">
            <IconCheck size={14} />
          </ThemeIcon>
        )}
        {n.status === 'error' && (
          <ThemeIcon color="red" radius="xl" size="sm">
            <IconX size={14} />
          </ThemeIcon>
        )}
        <div style={{ flex: 1 }}>
          <Text size="sm">{n.text}</Text>
          {n.linkUrl &&
            (external ? (
              <Anchor href={n.linkUrl} target="_blank" rel="noreferrer" size="sm">
                {n.linkText ?? n.linkUrl}
              </Anchor>
            ) : (
              <Anchor component={Link} to={n.linkUrl} size="sm">
                {n.linkText ?? 'Open'}
              </Anchor>
            ))}
        </div>
        <CloseButton aria-label="Close process notification" onClick={n.close} size="sm" />
      </Group>
    </Paper>
  );
}
