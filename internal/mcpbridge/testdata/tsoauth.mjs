// tsoauth connects the official MCP TypeScript client to an MCP server
// that wants OAuth access tokens, with the SDK's client credentials
// provider: the client reads the 401's resource_metadata, finds the
// authorization server, gets a token for the resource and retries. It
// lists the tools and calls each tool named, and prints JSON:
// {"tools": [names], "calls": {name: {"isError", "text"} or {"error"}}}.
//
// usage: node tsoauth.mjs SDK_DIR URL ISSUER CLIENT_ID CLIENT_SECRET SCOPE TOOL...
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, url, issuer, clientId, clientSecret, scope, ...tools] = process.argv.slice(2);
const req = createRequire(join(sdkDir, "package.json"));
async function load(name) {
  const ns = await import(pathToFileURL(req.resolve(name)).href);
  return Object.assign({}, ns.default, ns);
}
const { Client } = await load("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await load("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { ClientCredentialsProvider } = await load("@modelcontextprotocol/sdk/client/auth-extensions.js");

const authProvider = new ClientCredentialsProvider({ clientId, clientSecret, scope, expectedIssuer: issuer });
const client = new Client({ name: "tsoauth", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
const listed = await client.listTools();
const report = { tools: listed.tools.map((t) => t.name).sort(), calls: {} };
for (const name of tools) {
  try {
    const res = await client.callTool({ name, arguments: {} });
    report.calls[name] = { isError: !!res.isError, text: res.content?.[0]?.text ?? "" };
  } catch (err) {
    report.calls[name] = { error: String(err?.message ?? err) };
  }
}
await client.close();
console.log(JSON.stringify(report));
