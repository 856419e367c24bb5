// Package mcpauth makes modhost's MCP endpoint an OAuth 2.1 resource
// server, as the MCP authorization specification asks of an HTTP server.
//
// # Tokens
//
// [New] reads the authorization server's metadata (RFC 8414, or OpenID
// Connect discovery) and its JSON Web Key Set. [Resource.Verify] accepts a
// JWT access token (RFC 9068) signed with RS256, ES256 or EdDSA by a key of
// that set, issued by that server, for this resource (its audience, RFC
// 8707), and valid now. Keys are cached by their kid; a kid the cache does
// not know fetches the set again, at most once per
// [Options.RefreshInterval]. A verified token's [Principal] is cached until
// the token expires.
//
// With [Options].Introspection, an opaque token (one that is not a JWT,
// or any token when the issuer publishes no keys) is checked by the
// issuer's introspection endpoint (RFC 7662), authenticated with this
// server's client credentials ([ReadClientCredentials] reads them from a
// file): an answer of active false refuses it, and its audience, issuer,
// expiry and not-before are judged as a JWT's claims. The answer is
// cached as a JWT's is; an endpoint that does not answer is no verdict
// on the token ([ErrUnavailable]: 503, not 401).
//
// # HTTP
//
// [Resource.Protect] wraps an MCP handler: a request without a valid
// bearer token gets 401 with a WWW-Authenticate challenge naming the
// protected-resource metadata (RFC 9728), which [Resource.MetadataHandler]
// serves, and a JSON-RPC error body. [Resource.Forbid] answers a request
// whose token lacks a scope with 403 insufficient_scope. Tokens are never
// logged and never passed on: a handler sees the [Principal] only
// ([PrincipalFrom]). A token verified before is found by its SHA-256 in
// the cache, not checked again. The MCP SDK's TokenInfo, which binds a
// session to its principal, can only be put in a context by the SDK's
// middleware: [Resource.SDKTokenInfo] does it, and a handler that serves
// some requests without the SDK sets [ProtectOptions].NoTokenInfo and
// wraps only the SDK's handlers in it. A handler that makes a context of
// its own for a request takes the principal with [ProtectOptions].ServePrincipal
// and puts it in that context ([WithPrincipalValue]).
//
// # Callers
//
// A verified principal carries the caller a mod's handler reads
// ([Principal.Caller], sdk.ToolContext.Caller): its subject, client id and
// scopes, and only the claims [Options.Claims] passes on. [Principal.Key]
// names a principal across its tokens (issuer and subject, or client id);
// a session (through the SDK's TokenInfo), a task and a request state are
// bound to it.
package mcpauth
