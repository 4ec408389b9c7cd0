import { describe, expect, it } from 'vitest';
import { LIVE_MESSAGES, NotificationsChannelMessage } from './live.js';

describe('live message schemas', () => {
  it('accepts a notification and a transfer update, and refuses what the browser could not show', () => {
    expect(NotificationsChannelMessage.safeParse({ type: 'notification', title: 'Hi', body: 'there' }).success).toBe(
      true,
    );
    const transfer = {
      type: 'transfer_attempt',
      id: 4,
      status: 'complete',
      reverting: false,
      reverted: true,
      processed: 3,
      total: 3,
      title: 'Transfer reverted',
      body: 'Transfer #4: contacts moved back from Tyler Brooks.',
      link: '/contacts/transfers?attempt=4',
    };
    expect(NotificationsChannelMessage.parse(transfer)).toEqual(transfer);
    // Wave 1's message: a status the attempt never has, no text to show.
    expect(NotificationsChannelMessage.safeParse({ type: 'transfer_attempt', id: 4, status: 'reverted' }).success).toBe(
      false,
    );
    expect(NotificationsChannelMessage.safeParse({ title: 'untyped', body: '' }).success).toBe(false);
    expect(Object.keys(LIVE_MESSAGES)).toEqual([
      'NotificationsChannel',
      'ContactsImportChannel',
      'BroadcastsChannel',
      'SmsChannel',
      'CallsChannel',
    ]);
  });
});
