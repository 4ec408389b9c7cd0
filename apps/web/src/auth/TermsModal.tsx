import { Alert, Button, Group, Modal, ScrollArea } from '@mantine/core';
import { errorMessage } from '../api/client';
import { acceptTos } from '../api/endpoints';
import { TermsContent } from '../content/TermsContent';
import { useSignOut, useUserMutation } from './session';

/** Blocks the app until the terms are accepted (spec §2); the only ways out are Accept and signing out. */
export function TermsModal() {
  const accept = useUserMutation(acceptTos);
  const signOut = useSignOut();
  return (
    <Modal
      opened
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      size="lg"
      title="Terms of Use"
      scrollAreaComponent={ScrollArea.Autosize}
    >
      <TermsContent headingOrder={3} />
      {accept.isError && (
        <Alert color="red" mt="md" role="alert">
          {errorMessage(accept.error)}
        </Alert>
      )}
      <Group justify="flex-end" mt="lg">
        <Button variant="subtle" onClick={() => signOut.mutate()} loading={signOut.isPending}>
          Sign out
        </Button>
        <Button onClick={() => accept.mutate(undefined)} loading={accept.isPending}>
          Accept
        </Button>
      </Group>
    </Modal>
  );
}
