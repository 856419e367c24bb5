// tsv2 calls tools through the official MCP TypeScript v2 client
// (@modelcontextprotocol/client), pinned to protocol 2026-07-28, over
// streamable HTTP and over stdio: research_word_count, and
// research_save_note, whose approval the client answers (accept) through its
// elicitation handler, fulfilling the server's input request. It prints, per
// transport, the negotiated protocol and each call's result as JSON:
// {"transports": [{"name", "protocol", "calls": [{"tool", "asked", "isError", "text"}]}]}.
//
// usage: node tsv2.mjs TOOLS_DIR HTTP_URL STDIO_SERVER_JSON
// where STDIO_SERVER_JSON is {"command": "...", "args": [...]}.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [toolsDir, url, serverJSON] = process.argv.slice(2);
const req = createRequire(join(toolsDir, "package.json"));
async function load(name) {
  return await import(pathToFileURL(req.resolve(name)).href);
}
const { Client, StreamableHTTPClientTransport } = await load("@modelcontextprotocol/client");
const { StdioClientTransport } = await load("@modelcontextprotocol/client/stdio");

async function run(name, transport, note) {
  const client = new Client(
    { name: "tsv2", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const asked = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: {} };
  });
  await client.connect(transport);
  const calls = [];
  try {
    for (const [tool, args] of [
      ["research_word_count", { text: "one two three" }],
      ["research_save_note", { path: note, text: "kept by " + name }],
    ]) {
      const before = asked.length;
      const res = await client.callTool({ name: tool, arguments: args });
      calls.push({
        tool,
        asked: asked.slice(before),
        isError: !!res.isError,
        text: (res.content ?? []).map((c) => c.text).join("\n"),
      });
    }
    return { name, protocol: client.getNegotiatedProtocolVersion(), calls };
  } finally {
    await client.close();
  }
}

const server = JSON.parse(serverJSON);
const transports = [
  await run("http", new StreamableHTTPClientTransport(new URL(url)), "notes/http.md"),
  await run("stdio", new StdioClientTransport({ ...server, env: { ...process.env }, stderr: "inherit" }), "notes/stdio.md"),
];
process.stdout.write(JSON.stringify({ transports }));
