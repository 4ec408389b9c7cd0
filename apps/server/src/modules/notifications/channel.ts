import { userStream } from '../../platform/live/channels.js';
import type { Module } from '../types.js';

/**
 * NotificationsChannel: a person's own notifications (the header's notifications area). Any area reaches the user
 * by publishing to userStream(id); a subscriber can only ever get their own stream.
 */
export const notificationsModule: Module = {
  name: 'notifications',
  register(_app, { channels }) {
    channels.register({ name: 'NotificationsChannel', streamFor: (auth) => userStream(auth.user.id) });
  },
};
