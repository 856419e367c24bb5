// An OpenID provider for tests: panva's oidc-provider, issuing RFC 9068
// JWT access tokens by client credentials for one resource (RFC 8707).
// It listens on a free loopback port and prints its issuer URL.
//
// Environment: OIDC_PROVIDER_MODULE, the file URL of oidc-provider's
// lib/index.js; RESOURCE, the resource's URL; ACCESS_TOKEN_FORMAT, jwt
// (the default) or opaque. Three clients: "writer" (secret
// "writer-secret") may get notes.read and notes.write, "reader" (secret
// "reader-secret") notes.read, and "modhost" (secret "modhost-secret"),
// the resource server, introspects tokens (RFC 7662) at /token/introspection.
import http from 'node:http';
import crypto from 'node:crypto';

const { default: Provider, errors } = await import(process.env.OIDC_PROVIDER_MODULE);
const resource = process.env.RESOURCE;
const accessTokenFormat = process.env.ACCESS_TOKEN_FORMAT || 'jwt';

const key = (type, options, alg) => ({
  ...crypto.generateKeyPairSync(type, options).privateKey.export({ format: 'jwk' }),
  kid: alg.toLowerCase(), alg, use: 'sig',
});

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const client = (id, scope) => ({
  client_id: id, client_secret: `${id}-secret`, scope,
  grant_types: ['client_credentials'], redirect_uris: [], response_types: [],
});

const provider = new Provider(issuer, {
  clients: [client('writer', 'notes.read notes.write'), client('reader', 'notes.read'), client('modhost', 'notes.read')],
  scopes: ['notes.read', 'notes.write'],
  jwks: { keys: [key('rsa', { modulusLength: 2048 }, 'RS256'), key('ec', { namedCurve: 'P-256' }, 'ES256')] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true, allowedPolicy: async (ctx, caller) => caller.clientId === 'modhost' },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, indicator) => {
        if (indicator !== resource) throw new errors.InvalidTarget();
        return {
          scope: 'notes.read notes.write', audience: resource,
          accessTokenFormat, accessTokenTTL: 300, jwt: { sign: { alg: 'ES256' } },
        };
      },
    },
  },
});
server.on('request', provider.callback());
console.log(issuer);
