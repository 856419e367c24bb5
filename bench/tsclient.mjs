// Times tools/call of echo with the official TypeScript SDK's client.
// Usage: node tsclient.mjs SDK_DIR WARMUP CALLS PAYLOAD (--url URL | --command CMD ARGS...)
// Prints {"text": the first reply's text, "us": [microseconds per call]}.
import { pathToFileURL } from "node:url";

const [sdk, warmup, calls, payload, mode, ...target] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${sdk}/dist/esm/${p}`).href);
const { Client } = await load("client/index.js");
let transport;
if (mode === "--url") {
  const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
  transport = new StreamableHTTPClientTransport(new URL(target[0]));
} else {
  const { StdioClientTransport } = await load("client/stdio.js");
  transport = new StdioClientTransport({ command: target[0], args: target.slice(1), env: process.env, stderr: "ignore" });
}
const client = new Client({ name: "modkit-bench", version: "1.0.0" });
await client.connect(transport);
const args = JSON.parse(payload);
const call = async () => {
  const res = await client.callTool({ name: "echo", arguments: args });
  if (res.isError) throw new Error(`echo failed: ${JSON.stringify(res.content)}`);
  return res.content[0].text;
};
const text = await call();
for (let i = 0; i < Number(warmup); i++) await call();
const us = [];
for (let i = 0; i < Number(calls); i++) {
  const start = process.hrtime.bigint();
  await call();
  us.push(Number(process.hrtime.bigint() - start) / 1000);
}
process.stdout.write(JSON.stringify({ text, us }) + "\n");
await client.close();
