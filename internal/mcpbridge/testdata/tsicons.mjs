// tsicons lists the tools of modhost mcp over stdio with the official MCP
// TypeScript client, which checks the answer against the SDK's schema of
// tools/list, and checks each tool's icons against the SDK's Icon schema,
// strictly (no property the schema does not name). It prints, per tool, its
// icons and the schema's problems with them, and whether the schema refuses
// an icon that breaks it:
// {"refusesBad": bool, "tools": [{"name", "icons", "problems": [...]}]}.
//
// usage: node tsicons.mjs SDK_DIR SERVER_JSON
// where SERVER_JSON is {"command": "...", "args": [...]}.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, serverJSON] = process.argv.slice(2);
const req = createRequire(join(sdkDir, "package.json"));
async function load(name) {
  const ns = await import(pathToFileURL(req.resolve(name)).href);
  return Object.assign({}, ns.default, ns);
}
const { Client } = await load("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = await load("@modelcontextprotocol/sdk/client/stdio.js");
const { IconSchema } = await load("@modelcontextprotocol/sdk/types.js");

const strict = IconSchema.strict();
const problems = (icon) => {
  const r = strict.safeParse(icon);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

const client = new Client({ name: "tsicons", version: "1.0.0" }, { capabilities: {} });
await client.connect(new StdioClientTransport({ ...JSON.parse(serverJSON), env: { ...process.env }, stderr: "inherit" }));
try {
  const { tools } = await client.listTools();
  const out = tools.map((t) => ({ name: t.name, icons: t.icons ?? [], problems: (t.icons ?? []).flatMap(problems) }));
  const refusesBad = problems({ src: "https://icons.example.com/a.png", theme: "blue" }).length > 0 &&
    problems({ src: "https://icons.example.com/a.png", size: "48x48" }).length > 0;
  process.stdout.write(JSON.stringify({ refusesBad, tools: out }));
} finally {
  await client.close();
}
