import { Notifications } from '@mantine/notifications';

/**
 * The toasts' container, a chunk of its own that AppLayout loads beside the page rather than before it (a lazy
 * import of '@mantine/notifications' itself would keep the container in the shell's download, as the shell also
 * imports `notifications` from it). A toast shown before it arrives waits in the notifications store.
 */
export function Toasts() {
  return <Notifications position="top-right" />;
}
