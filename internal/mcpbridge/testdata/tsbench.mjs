// tsbench calls a tool through the official MCP TypeScript client over
// stdio, against several servers in turn, and prints each server's call
// durations in microseconds as JSON: {"durations": [[...], [...]]}.
//
// usage: node tsbench.mjs SDK_DIR CALLS TOOL ARGS_JSON SERVER_JSON...
// where each SERVER_JSON is {"command": "...", "args": [...]}.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, calls, tool, argsJSON, ...servers] = process.argv.slice(2);
const req = createRequire(join(sdkDir, "package.json"));
async function load(name) {
  const ns = await import(pathToFileURL(req.resolve(name)).href);
  return Object.assign({}, ns.default, ns);
}
const { Client } = await load("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = await load("@modelcontextprotocol/sdk/client/stdio.js");

const args = JSON.parse(argsJSON);
const clients = [];
for (const s of servers) {
  const { command, args: serverArgs, env } = JSON.parse(s);
  const client = new Client({ name: "tsbench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args: serverArgs, env: Object.assign({}, process.env, env), stderr: "inherit" }));
  clients.push(client);
}
const call = async (client) => {
  const start = performance.now();
  const res = await client.callTool({ name: tool, arguments: args });
  const took = performance.now() - start;
  if (res.isError) throw new Error(`${tool}: ${JSON.stringify(res.content)}`);
  return Math.round(took * 1000);
};
// Warm up: the first calls start mods and fill caches.
for (let i = 0; i < 20; i++) for (const c of clients) await call(c);
const durations = clients.map(() => []);
for (let i = 0; i < Number(calls); i++) {
  for (let j = 0; j < clients.length; j++) durations[j].push(await call(clients[j]));
}
for (const c of clients) await c.close();
process.stdout.write(JSON.stringify({ durations }) + "\n");
