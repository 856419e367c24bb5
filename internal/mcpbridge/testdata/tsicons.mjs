// tsicons lists the tools, prompts, resources and resource templates of
// modhost mcp over stdio with the official MCP TypeScript client, which
// checks each answer against the SDK's schema of the list, and checks each
// item's icons against the SDK's Icon schema, strictly (no property the
// schema does not name). It prints, per item, its icons and the schema's
// problems with them, and whether the schema refuses an icon that breaks
// it: {"refusesBad": bool, "tools": [{"name", "icons", "problems": [...]}]},
// where a name is "tool X", "prompt X", "resource URI" or "template URI".
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
  const item = (name, icons) => ({ name, icons: icons ?? [], problems: (icons ?? []).flatMap(problems) });
  const { tools } = await client.listTools();
  const { prompts } = await client.listPrompts();
  const { resources } = await client.listResources();
  const { resourceTemplates } = await client.listResourceTemplates();
  const out = [
    ...tools.map((t) => item("tool " + t.name, t.icons)),
    ...prompts.map((p) => item("prompt " + p.name, p.icons)),
    ...resources.map((r) => item("resource " + r.uri, r.icons)),
    ...resourceTemplates.map((r) => item("template " + r.uriTemplate, r.icons)),
  ];
  const refusesBad = problems({ src: "https://icons.example.com/a.png", theme: "blue" }).length > 0 &&
    problems({ src: "https://icons.example.com/a.png", size: "48x48" }).length > 0;
  process.stdout.write(JSON.stringify({ refusesBad, tools: out }));
} finally {
  await client.close();
}
