/**
 * Single sign-on with OpenID Connect, behind a port: the routes (modules/session/sso.ts) hold the state, the
 * accounts and the sessions; the adapter speaks the protocol (discovery, authorization URL with PKCE, code
 * exchange with ID-token checks, back-channel logout tokens).
 */

/** One company's identity provider. The client secret arrives decrypted; it is stored sealed. */
export interface SsoConnection {
  id: number;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The error kinds of the spec's authorization client (crm-wallet-dialer-admin.md §8). */
export type SsoErrorKind =
  | 'oauth2_error'
  | 'discovery_error'
  | 'missing_state'
  | 'invalid_state'
  | 'authorization_error'
  | 'code_exchange_error'
  | 'backchannel_logout_error';

export class SsoError extends Error {
  constructor(
    readonly kind: SsoErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export interface SsoChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface SsoIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean | null;
  /** The provider's session id, when it sends one: back-channel logout names it. */
  sid: string | null;
}

export interface SsoPort {
  /** Where to send the browser. Throws SsoError('discovery_error') when the provider cannot be reached. */
  authorizationUrl(conn: SsoConnection, redirectUri: string, checks: SsoChecks): Promise<string>;
  /** Exchanges the code of `callbackUrl` and checks state, nonce, PKCE and the ID token. */
  exchange(conn: SsoConnection, callbackUrl: URL, checks: SsoChecks): Promise<SsoIdentity>;
  /** The issuer and audience a logout token claims, read before it is verified (to pick the connection). */
  peekLogoutToken(token: string): { issuer: string; audience: string[] } | null;
  /** Verifies a back-channel logout token; answers whom it signs out. */
  verifyLogoutToken(conn: SsoConnection, token: string): Promise<{ sub: string | null; sid: string | null }>;
  newChecks(): Promise<SsoChecks & { codeChallenge: string }>;
}
