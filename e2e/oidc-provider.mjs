// A real OpenID Connect provider (oidc-provider) for the browser flows, started by Playwright next to Harbor: the
// company's "identity provider" a person signs in at. Its development login form accepts any login; the login is
// the account id and the email Harbor matches. Never used outside the flows.
import http from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.E2E_OIDC_PORT ?? 3101);
// Every worker's Harbor server (playwright.config.ts) is a client that may be sent back to.
const harbors = (process.env.E2E_BASE_URLS ?? 'http://localhost:3100').split(',');
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'harbor-e2e',
      client_secret: 'harbor-e2e-secret',
      redirect_uris: harbors.map((harbor) => `${harbor}/api/auth/callback`),
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  findAccount: async (_ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, email: id, email_verified: true }),
  }),
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ['harbor-e2e-provider-cookie-key'] },
  // Consent is the provider's business, not Harbor's: the grant is given as the person signs in.
  loadExistingGrant: async (ctx) => {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});

http.createServer(provider.callback()).listen(port, '127.0.0.1', () => {
  console.log(`identity provider for the flows at ${issuer}`);
});
