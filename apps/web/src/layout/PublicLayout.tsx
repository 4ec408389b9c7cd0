import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { type ReactNode, useRef } from 'react';
import { Link, Outlet } from 'react-router';
import { Brand, MAIN_ID } from '../components/Brand';
import { useHeadingFocus } from './useHeadingFocus';

/** Frame of the pages that never load the user; `children` stands in for the route's page (the not-found page). */
export function PublicLayout({ children }: { children?: ReactNode }) {
  const main = useRef<HTMLElement>(null);
  useHeadingFocus(main);
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <a className="skip-link" href={`#${MAIN_ID}`}>
        Skip to main content
      </a>
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="md">
          <Brand />
        </Container>
      </Box>
      <Box
        component="main"
        id={MAIN_ID}
        ref={main}
        tabIndex={-1}
        py="xl"
        style={{ flex: 1, outline: 'none', minWidth: 0 }}
      >
        <Container size="md">{children ?? <Outlet />}</Container>
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
