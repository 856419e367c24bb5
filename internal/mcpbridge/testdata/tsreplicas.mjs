// tsreplicas makes N tool calls through the official MCP TypeScript v2
// client (@modelcontextprotocol/client), pinned to protocol 2026-07-28, to
// one URL (a balancer in front of replicas), ten at a time: greet, and
// every tenth call test_input_required_result_elicitation, whose question
// the client answers and whose second round the balancer may send to
// another replica. It prints {"calls", "asked", "failed", "protocol"}.
//
// usage: node tsreplicas.mjs TOOLS_DIR URL N
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [toolsDir, url, n] = process.argv.slice(2);
const req = createRequire(join(toolsDir, "package.json"));
const { Client, StreamableHTTPClientTransport } = await import(pathToFileURL(req.resolve("@modelcontextprotocol/client")).href);

const client = new Client(
  { name: "tsreplicas", version: "1.0.0" },
  { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
);
let asked = 0;
client.setRequestHandler("elicitation/create", async () => {
  asked++;
  return { action: "accept", content: { name: "Ada" } };
});
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
let calls = 0, failed = 0;
const errors = [];
async function one(i) {
  const ask = i % 10 === 0;
  const name = ask ? "test_input_required_result_elicitation" : "greet";
  const want = ask ? "Ada" : `Hello, ${i}!`;
  try {
    const res = await client.callTool({ name, arguments: ask ? {} : { name: String(i) } });
    const text = (res.content ?? []).map((c) => c.text).join("\n");
    if (res.isError || !text.includes(want)) {
      failed++;
      errors.push(`${name} ${i}: ${text}`);
    }
  } catch (e) {
    failed++;
    errors.push(`${name} ${i}: ${e}`);
  }
  calls++;
}
let next = 0;
await Promise.all(Array.from({ length: 10 }, async () => {
  while (next < Number(n)) await one(next++);
}));
const protocol = client.getNegotiatedProtocolVersion();
await client.close();
for (const e of errors.slice(0, 5)) process.stderr.write(e + "\n");
process.stdout.write(JSON.stringify({ calls, asked, failed, protocol }));
