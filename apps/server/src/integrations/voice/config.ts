/**
 * Voice configuration (docs/decisions/voice-provider.md). Production: Twilio Programmable Voice (TWILIO_* keys).
 * The local lab: SIP over WebSocket to Kamailio with autheph credentials and rtpengine (VOICE_SIP_*), started by
 * the lab script (docs/decisions/voice-local-lab.md). Neither set: the softphone says the voice service is not configured.
 */
export interface TwilioVoiceConfig {
  accountSid: string;
  authToken: string;
  apiKey: string;
  apiSecret: string;
  /** The TwiML app whose voice URL is /v1/voice/twiml/outbound. */
  twimlAppSid: string;
  /** The REST API base (a stand-in on loopback in tests). */
  apiBase: string;
}

export interface SipVoiceConfig {
  /** JsSIP's WebSocket URL (Kamailio's websocket listener). */
  wsUrl: string;
  /** The SIP domain users register in. */
  domain: string;
  /** Kamailio autheph's shared secret: tokens are HMAC-SHA1 of `expiry:identity`. */
  secret: string;
  /** rtpengine's ng control address (host:port, UDP) for recording on and off. */
  rtpengineNg: string | null;
  /** The recorded disclaimer rtpengine plays into a call: a file on the rtpengine host (the lab writes one). */
  disclaimerFile: string | null;
  /**
   * Where the lab's relay serves finished recordings (`<url>/<recording sid>.wav`): the only place the server
   * fetches a lab recording from, whatever a callback says.
   */
  recordingsUrl: string | null;
}

export interface VoiceConfig {
  provider: 'twilio' | 'sip' | 'none';
  twilio: TwilioVoiceConfig | null;
  sip: SipVoiceConfig | null;
  /** Token lifetime in seconds (the browser refreshes 10 s before expiry, spec §9). */
  tokenTtlS: number;
  /** The TPMO disclaimer read into a call. */
  disclaimerText: string;
}

export const DEFAULT_TPMO_DISCLAIMER =
  'We do not offer every plan available in your area. Currently we represent a limited number of organizations ' +
  'which offer products in your area. Please contact Medicare.gov, 1-800-MEDICARE, or your local State Health ' +
  'Insurance Program to get information on all of your options.';

function recordingsUrl(value: string | undefined) {
  if (!value) return null;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('VOICE_SIP_RECORDINGS_URL must be an http(s) URL');
  }
  return url.toString().replace(/\/+$/, '');
}

export function loadVoiceConfig(env: NodeJS.ProcessEnv): VoiceConfig {
  const twilio =
    env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_API_KEY && env.TWILIO_API_SECRET
      ? {
          accountSid: env.TWILIO_ACCOUNT_SID,
          authToken: env.TWILIO_AUTH_TOKEN,
          apiKey: env.TWILIO_API_KEY,
          apiSecret: env.TWILIO_API_SECRET,
          twimlAppSid: env.TWILIO_TWIML_APP_SID ?? '',
          apiBase: env.TWILIO_API_BASE || 'https://api.twilio.com',
        }
      : null;
  const sip =
    env.VOICE_SIP_WS_URL && env.VOICE_SIP_SECRET
      ? {
          wsUrl: env.VOICE_SIP_WS_URL,
          domain: env.VOICE_SIP_DOMAIN ?? '127.0.0.1',
          secret: env.VOICE_SIP_SECRET,
          rtpengineNg: env.VOICE_RTPENGINE_NG || null,
          disclaimerFile: env.VOICE_SIP_DISCLAIMER_FILE || null,
          recordingsUrl: recordingsUrl(env.VOICE_SIP_RECORDINGS_URL),
        }
      : null;
  const wanted = env.VOICE_PROVIDER;
  const provider =
    wanted === 'twilio' || wanted === 'sip' || wanted === 'none' ? wanted : twilio ? 'twilio' : sip ? 'sip' : 'none';
  if (provider === 'twilio' && !twilio) {
    throw new Error(
      'VOICE_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_API_KEY, TWILIO_API_SECRET',
    );
  }
  if (provider === 'sip' && !sip) throw new Error('VOICE_PROVIDER=sip needs VOICE_SIP_WS_URL and VOICE_SIP_SECRET');
  return {
    provider,
    twilio,
    sip,
    tokenTtlS: Number(env.VOICE_TOKEN_TTL_S ?? 3600),
    disclaimerText: env.VOICE_DISCLAIMER_TEXT || DEFAULT_TPMO_DISCLAIMER,
  };
}
