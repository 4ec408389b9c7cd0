import { Button, Center, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeading } from '../components/PageHeading';

export function NotFoundPage({
  title = 'Page not found',
  text = 'The page you are looking for does not exist or has moved.',
  back = { to: '/', label: 'Go to the dashboard' },
}: {
  title?: string;
  text?: string;
  back?: { to: string; label: string };
}) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <Text fz={48} fw={700} c="dimmed" aria-hidden>
          404
        </Text>
        <PageHeading title={title} />
        <Text c="dimmed">{text}</Text>
        <Button component={Link} to={back.to}>
          {back.label}
        </Button>
      </Stack>
    </Center>
  );
}
