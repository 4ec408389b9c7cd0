/**
 * The production adapter of the SSO port: openid-client (discovery, PKCE, code exchange, ID-token validation) and
 * jose (back-channel logout tokens, which openid-client does not validate). Discovery results are cached per
 * connection for an hour. Every request to a provider goes through guardedFetch: outside development no private,
 * loopback or link-local address, and one error for every way of not reaching it. Plain-http issuers are accepted
 * only on loopback in development (local providers, tests).
 */
import crypto from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, customFetch as joseCustomFetch, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { guardedFetch, UnreachableProvider } from './guarded-fetch.js';
import { type SsoChecks, type SsoConnection, SsoError, type SsoIdentity, type SsoPort } from './port.js';

const DISCOVERY_TTL_MS = 3_600_000;
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/** The one answer to an admin or a person signing in, whatever went wrong on the way: nothing to map a network by. */
export const UNREACHABLE = 'The identity provider could not be reached. Check the issuer URL.';

export class OpenIdSso implements SsoPort {
  private readonly configs = new Map<string, { config: oidc.Configuration; at: number }>();
  private readonly jwks = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
  private readonly fetch: ReturnType<typeof guardedFetch>;

  /** allowPrivateNetwork: development and tests, where providers run on loopback. */
  constructor(private readonly opts: { allowPrivateNetwork: boolean } = { allowPrivateNetwork: false }) {
    this.fetch = guardedFetch(opts.allowPrivateNetwork);
  }

  private async configuration(conn: SsoConnection): Promise<oidc.Configuration> {
    // The secret is part of the cached client's authentication: a rotated secret must not reuse the old one.
    const secret = crypto.createHash('sha256').update(conn.clientSecret).digest('hex').slice(0, 16);
    const key = `${conn.id}:${conn.issuer}:${conn.clientId}:${secret}`;
    const cached = this.configs.get(key);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    let issuer: URL;
    try {
      issuer = new URL(conn.issuer);
    } catch {
      throw new SsoError('discovery_error', UNREACHABLE);
    }
    const insecureOk = this.opts.allowPrivateNetwork && isLoopback(issuer);
    try {
      const config = await oidc.discovery(issuer, conn.clientId, undefined, oidc.ClientSecretPost(conn.clientSecret), {
        [oidc.customFetch]: this.fetch as oidc.CustomFetch,
        ...(insecureOk ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
      // The token and userinfo requests that follow go through the same guard.
      config[oidc.customFetch] = this.fetch as oidc.CustomFetch;
      this.configs.set(key, { config, at: Date.now() });
      return config;
    } catch {
      throw new SsoError('discovery_error', UNREACHABLE);
    }
  }

  async newChecks() {
    const codeVerifier = oidc.randomPKCECodeVerifier();
    return {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
      codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    };
  }

  async authorizationUrl(conn: SsoConnection, redirectUri: string, checks: SsoChecks & { codeChallenge?: string }) {
    const config = await this.configuration(conn);
    const challenge = checks.codeChallenge ?? (await oidc.calculatePKCECodeChallenge(checks.codeVerifier));
    return oidc
      .buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: checks.state,
        nonce: checks.nonce,
      })
      .toString();
  }

  async exchange(conn: SsoConnection, callbackUrl: URL, checks: SsoChecks): Promise<SsoIdentity> {
    const config = await this.configuration(conn);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      if (err instanceof oidc.AuthorizationResponseError) {
        throw new SsoError('authorization_error', err.error_description ?? err.error);
      }
      if (err instanceof oidc.ResponseBodyError) {
        throw new SsoError('code_exchange_error', err.error_description ?? err.error);
      }
      throw new SsoError(
        'code_exchange_error',
        err instanceof UnreachableProvider ? UNREACHABLE : (err as Error).message,
      );
    }
    const claims = tokens.claims();
    if (!claims) throw new SsoError('code_exchange_error', 'The provider sent no ID token');
    // Providers that conform ID-token claims put scope claims (email) only in userinfo; ask it, for this subject.
    let profile: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string') {
      try {
        profile = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      } catch (err) {
        throw new SsoError(
          'oauth2_error',
          err instanceof UnreachableProvider
            ? UNREACHABLE
            : `The provider's userinfo failed (${(err as Error).message})`,
        );
      }
    }
    return {
      sub: claims.sub,
      email: typeof profile.email === 'string' ? profile.email : null,
      emailVerified: typeof profile.email_verified === 'boolean' ? profile.email_verified : null,
      sid: typeof claims.sid === 'string' ? claims.sid : null,
    };
  }

  peekLogoutToken(token: string) {
    try {
      const claims = decodeJwt(token);
      if (!claims.iss || !claims.aud) return null;
      return { issuer: claims.iss, audience: [claims.aud].flat() };
    } catch {
      return null;
    }
  }

  /** OpenID Connect Back-Channel Logout 1.0 §2.6: signature, iss, aud, iat, the logout event, no nonce, sub or sid. */
  async verifyLogoutToken(conn: SsoConnection, token: string) {
    const config = await this.configuration(conn);
    const meta = config.serverMetadata();
    if (!meta.jwks_uri) throw new SsoError('backchannel_logout_error', 'The provider publishes no keys');
    let jwks = this.jwks.get(meta.jwks_uri);
    if (!jwks) {
      jwks = createRemoteJWKSet(new URL(meta.jwks_uri), { [joseCustomFetch]: this.fetch as typeof fetch });
      this.jwks.set(meta.jwks_uri, jwks);
    }
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: meta.issuer,
        audience: conn.clientId,
        maxTokenAge: '5m',
      });
      const events = payload.events as Record<string, unknown> | undefined;
      if (!events || typeof events[LOGOUT_EVENT] !== 'object') throw new Error('not a logout token');
      if ('nonce' in payload) throw new Error('a logout token carries no nonce');
      const sub = typeof payload.sub === 'string' ? payload.sub : null;
      const sid = typeof payload.sid === 'string' ? payload.sid : null;
      if (!sub && !sid) throw new Error('names neither sub nor sid');
      return { sub, sid };
    } catch (err) {
      throw new SsoError('backchannel_logout_error', `Invalid logout token: ${(err as Error).message}`);
    }
  }
}
