// tstaskcall calls research_search_workspace, which runs only as a task,
// through the official MCP Tasks client (@modelcontextprotocol/ext-tasks)
// on the official TypeScript v2 client (@modelcontextprotocol/client)
// pinned to 2026-07-28, over streamable HTTP and over stdio. The tasks
// client's raw requests travel on the v2 client's own transport (the
// extension's methods are not the v2 client's to send). It prints, per
// transport, the negotiated protocol, the result types and task statuses
// the server answered, and the call's result. Then the v1 client
// (@modelcontextprotocol/sdk) at 2025-11-25 calls it over both, as a plain
// call (answers: ["plain"]):
// {"calls": [{"name", "protocol", "answers": ["tools/call task working", ...], "isError", "text"}]}.
//
// usage: node tstaskcall.mjs TOOLS_DIR HTTP_URL STDIO_SERVER_JSON
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
const { StdioClientTransport } = await load("@modelcontextprotocol/client/stdio");
const { Client: ClientV1 } = await load("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport: HTTPV1 } = await load("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { StdioClientTransport: StdioV1 } = await load("@modelcontextprotocol/sdk/client/stdio.js");
// The Tasks client's package exports only ES modules: imported by path.
const tasks = await import(pathToFileURL(join(toolsDir, "node_modules", "@modelcontextprotocol", "ext-tasks", "dist", "client", "index.js")).href);

const clientInfo = { name: "tstaskcall", version: "1.0.0" };
const capabilities = { extensions: { "io.modelcontextprotocol/tasks": {} } };

// rawDispatcher sends JSON-RPC requests on transport, whose client reads
// every other message, and resolves each with its response.
function rawDispatcher(transport, answers) {
  const waiting = new Map();
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const done = message && typeof message.id === "string" ? waiting.get(message.id) : undefined;
    if (!done) return onmessage?.(message, extra);
    waiting.delete(message.id);
    done(message);
  };
  let next = 0;
  return async (request) => {
    const id = `raw-${++next}`;
    const response = new Promise((resolve) => waiting.set(id, resolve));
    await transport.send({ ...request, jsonrpc: "2.0", id });
    const message = await response;
    const r = message.result;
    answers.push([request.method, r?.resultType ?? "error", r?.status ?? message.error?.code ?? ""].join(" "));
    return { ...message, id: request.id };
  };
}

async function run(name, transport) {
  const client = new v2.Client(clientInfo, { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(transport);
  const answers = [];
  const session = tasks.createTaskSessionFromClient(client, {
    endpointId: name,
    rawDispatch: rawDispatcher(transport, answers),
    v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo, clientCapabilities: capabilities },
  });
  try {
    const execution = await session.callTool("research_search_workspace", { query: "DefineMod" });
    const { outcome } = await execution.settle();
    const result = tasks.resultFromTaskOutcome(outcome);
    return {
      name,
      protocol: client.getNegotiatedProtocolVersion(),
      answers,
      isError: !!result.isError,
      text: (result.content ?? []).map((c) => c.text).join("\n"),
    };
  } finally {
    await session.close();
    await client.close();
  }
}

async function runV1(name, transport) {
  const client = new ClientV1(clientInfo, { capabilities: {} });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: "research_search_workspace", arguments: { query: "DefineMod" } });
    return {
      name,
      protocol: transport.protocolVersion ?? "",
      answers: ["plain"],
      isError: !!result.isError,
      text: (result.content ?? []).map((c) => c.text).join("\n"),
    };
  } finally {
    await client.close();
  }
}

const server = JSON.parse(serverJSON);
const calls = [
  await run("http", new v2.StreamableHTTPClientTransport(new URL(url))),
  await run("stdio", new StdioClientTransport({ ...server, env: { ...process.env }, stderr: "inherit" })),
  await runV1("v1 http", new HTTPV1(new URL(url))),
  await runV1("v1 stdio", new StdioV1({ ...server, env: { ...process.env }, stderr: "inherit" })),
];
process.stdout.write(JSON.stringify({ calls }));
