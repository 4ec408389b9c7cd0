/**
 * The softphone's server side (issue 13): the voice port chosen from config (Twilio, the local SIP lab, or none),
 * the dialer routes, Twilio's TwiML and callbacks when Twilio is configured (the local lab's signed call events when
 * the lab is), and the call channel of /cable.
 */
import { CALLS_CHANNEL } from '@harbor/shared';
import { voicePortFor } from '../../integrations/voice/port.js';
import type { Module } from '../types.js';
import { callsStream } from './events.js';
import { registerLabVoice } from './lab-routes.js';
import { registerDialerRoutes } from './routes.js';
import { registerTwilioVoice } from './twiml-routes.js';

export const dialerModule: Module = {
  name: 'dialer',
  register(scope, { channels }) {
    const cfg = scope.deps.config.voice;
    const voice = voicePortFor(cfg);
    registerDialerRoutes(scope, voice);
    if (cfg.provider === 'twilio' && cfg.twilio) registerTwilioVoice(scope, cfg.twilio, voice);
    if (cfg.provider === 'sip' && cfg.sip) registerLabVoice(scope, cfg.sip);
    channels.register({
      name: CALLS_CHANNEL,
      // Spec §7: the call channel is subscribed only by people with the dialer.
      streamFor: (auth) => (auth.features.dialer ? callsStream(auth.user.id) : null),
    });
  },
};
