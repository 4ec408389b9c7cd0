import { Anchor, Box, Container, Group, Text, Title } from '@mantine/core';
import { Link, Outlet } from 'react-router';

/** Frame of the pages that never load the user. */
export function PublicLayout() {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="md">
          <Title order={1} size="h3" c="var(--mantine-primary-color-filled)">
            <Link to="/" style={{ color: 'inherit', textDecoration: 'none' }}>
              Harbor
            </Link>
          </Title>
        </Container>
      </Box>
      <Box component="main" py="xl" style={{ flex: 1 }}>
        <Container size="md">
          <Outlet />
        </Container>
      </Box>
      <Box component="footer" py="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="md">
          <Group justify="space-between" gap="xs">
            <Text size="xs" c="dimmed">
              © {new Date().getFullYear()} Harbor
            </Text>
            <Group gap="md">
              <Anchor component={Link} to="/contact-us" size="xs">
                Contact us
              </Anchor>
              <Anchor component={Link} to="/privacy-policy" size="xs">
                Privacy policy
              </Anchor>
              <Anchor component={Link} to="/terms-of-use" size="xs">
                Terms of use
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
