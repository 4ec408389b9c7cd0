import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, mount, queryByText, unmount, waitFor } from '../test/dom';
import { ConfirmDeleteButton } from './ConfirmDeleteButton';

afterEach(() => unmount());

/** The confirming "Delete" inside the question (the trigger carries the aria-label, the confirm does not). */
const confirmButton = () =>
  Array.from(document.querySelectorAll<HTMLElement>('[role="dialog"] button')).find((b) => b.textContent === 'Delete');

describe('ConfirmDeleteButton', () => {
  it('asks before acting; Cancel does nothing, the confirm acts once', async () => {
    const onConfirm = vi.fn();
    await mount(
      <MantineProvider>
        <ConfirmDeleteButton label="Delete file quote.pdf" onConfirm={onConfirm} />
      </MantineProvider>,
    );
    const trigger = document.querySelector<HTMLElement>('[aria-label="Delete file quote.pdf"]')!;
    await click(trigger);
    await waitFor(() => queryByText('Delete file quote.pdf? This cannot be undone.'), 'the question');
    expect(onConfirm).not.toHaveBeenCalled();
    await click(await waitFor(() => queryByText('Cancel')?.closest('button') as HTMLElement, 'Cancel'));
    expect(onConfirm).not.toHaveBeenCalled();
    await click(trigger);
    await click(await waitFor(confirmButton, 'confirm'));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
