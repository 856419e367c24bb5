// tsidle checks that an idle client keeps its session: the official MCP
// TypeScript clients, v1 (@modelcontextprotocol/sdk) and v2
// (@modelcontextprotocol/client, in its default 2025 mode, with sessions),
// connect over streamable HTTP, call research_word_count, stay idle for
// IDLE_MS (longer than the server's session timeout) and call again. These
// clients never open a new session when theirs expires, so the second call
// works only if the session lived. It prints, per client, each call's text
// or error as JSON: {"clients": [{"name", "session", "calls": [{"text", "error"}]}]}.
//
// usage: node tsidle.mjs TOOLS_DIR HTTP_URL IDLE_MS
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";

const [toolsDir, url, idleMs] = process.argv.slice(2);
const req = createRequire(join(toolsDir, "package.json"));
async function load(name) {
  const ns = await import(pathToFileURL(req.resolve(name)).href);
  return Object.assign({}, ns.default, ns);
}
const v1 = {
  ...(await load("@modelcontextprotocol/sdk/client/index.js")),
  ...(await load("@modelcontextprotocol/sdk/client/streamableHttp.js")),
};
const v2 = await load("@modelcontextprotocol/client");

async function run(name, sdk) {
  const client = new sdk.Client({ name: "tsidle", version: "1.0.0" }, { capabilities: {} });
  const transport = new sdk.StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  const calls = [];
  const call = async () => {
    try {
      const res = await client.callTool({ name: "research_word_count", arguments: { text: "one two three" } });
      calls.push({ text: res.content.map((c) => c.text).join("\n"), error: "" });
    } catch (e) {
      calls.push({ text: "", error: String(e) });
    }
  };
  try {
    await call();
    await sleep(Number(idleMs));
    await call();
    return { name, session: transport.sessionId ?? "", calls };
  } finally {
    await client.close();
  }
}

const clients = await Promise.all([run("v1", v1), run("v2", v2)]);
process.stdout.write(JSON.stringify({ clients }));
