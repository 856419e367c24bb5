// tstasks lists the tools of a server through the official MCP TypeScript
// clients, whose tool schemas check execution.taskSupport: the v2 client
// (@modelcontextprotocol/client) pinned to 2026-07-28 and the v1 client
// (@modelcontextprotocol/sdk) at 2025-11-25, each over streamable HTTP and
// over stdio. It prints, per client and transport, the negotiated protocol,
// each tool's taskSupport as the client kept it ("" when it kept no
// execution member: the v2 client keeps none at 2026-07-28, whose tasks
// extension defines no member of a tool) and whether the server declared
// the tasks extension:
// {"lists": [{"name", "protocol", "taskSupport": {"tool": "..."}, "extension"}]}.
//
// usage: node tstasks.mjs TOOLS_DIR HTTP_URL STDIO_SERVER_JSON
// where STDIO_SERVER_JSON is {"command": "...", "args": [...]}.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [toolsDir, url, serverJSON] = process.argv.slice(2);
const req = createRequire(join(toolsDir, "package.json"));
async function load(name) {
  return await import(pathToFileURL(req.resolve(name)).href);
}
const v2 = await load("@modelcontextprotocol/client");
const { StdioClientTransport: StdioV2 } = await load("@modelcontextprotocol/client/stdio");
const { Client: ClientV1 } = await load("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport: HTTPV1 } = await load("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { StdioClientTransport: StdioV1 } = await load("@modelcontextprotocol/sdk/client/stdio.js");

async function list(name, client, transport) {
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const taskSupport = {};
    for (const t of tools) taskSupport[t.name] = t.execution?.taskSupport ?? "";
    const protocol = client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? "";
    const extension = !!client.getServerCapabilities()?.extensions?.["io.modelcontextprotocol/tasks"];
    return { name, protocol, taskSupport, extension };
  } finally {
    await client.close();
  }
}

const server = JSON.parse(serverJSON);
const stdio = () => ({ ...server, env: { ...process.env }, stderr: "inherit" });
const newV2 = () =>
  new v2.Client({ name: "tstasks", version: "1.0.0" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
const newV1 = () => new ClientV1({ name: "tstasks", version: "1.0.0" }, { capabilities: {} });
const lists = [
  await list("v2 http", newV2(), new v2.StreamableHTTPClientTransport(new URL(url))),
  await list("v2 stdio", newV2(), new StdioV2(stdio())),
  await list("v1 http", newV1(), new HTTPV1(new URL(url))),
  await list("v1 stdio", newV1(), new StdioV1(stdio())),
];
process.stdout.write(JSON.stringify({ lists }));
