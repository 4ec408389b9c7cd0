import { GENERIC_ERROR_TEXT, GENERIC_ERROR_TITLE } from '@harbor/shared';
import { Alert, Button, Center, Group } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ApiError } from '../api/client';
import { NotFoundPage } from './NotFoundPage';

/**
 * There is no error-reporting service wired yet; the console is the report. Failed requests are not reported
 * (spec §8): the server already knows about them.
 */
export function reportError(error: unknown, info?: ErrorInfo): void {
  if (error instanceof ApiError) return;
  console.error('Application error', error, info?.componentStack ?? '');
}

export function GenericErrorPanel({ onRetry }: { onRetry?: () => void }) {
  return (
    <Center p="xl">
      <Alert
        color="red"
        title={GENERIC_ERROR_TITLE}
        icon={<IconAlertTriangle />}
        role="alert"
        maw={560}
        variant="light"
      >
        {GENERIC_ERROR_TEXT}
        <Group mt="md" gap="xs">
          {onRetry && (
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              Try again
            </Button>
          )}
          <Button size="xs" variant="subtle" color="red" component="a" href="/">
            Go to the dashboard
          </Button>
        </Group>
      </Alert>
    </Center>
  );
}

/** The router's error element: render errors inside any route land here. */
export function RouteErrorPanel() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  reportError(error);
  return <GenericErrorPanel onRetry={() => window.location.reload()} />;
}

/** For failures outside the router (providers). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    reportError(error, info);
  }

  override render() {
    if (this.state.failed) return <GenericErrorPanel onRetry={() => this.setState({ failed: false })} />;
    return this.props.children;
  }
}
