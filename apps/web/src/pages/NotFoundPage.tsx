import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <Text fz={48} fw={700} c="dimmed" aria-hidden>
          404
        </Text>
        <Title order={2}>Page not found</Title>
        <Text c="dimmed">The page you are looking for does not exist or has moved.</Text>
        <Button component={Link} to="/">
          Go to the dashboard
        </Button>
      </Stack>
    </Center>
  );
}
