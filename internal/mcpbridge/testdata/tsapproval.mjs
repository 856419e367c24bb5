// tsapproval calls research_save_note through the official MCP TypeScript
// client over stdio, as three clients: one that declares elicitation and
// accepts, one that declares it and declines, one that does not declare it.
// It prints what each was asked and the call's result as JSON:
// {"scenarios": [{"name", "asked": [messages], "isError", "text"}]}.
//
// usage: node tsapproval.mjs SDK_DIR SERVER_JSON
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
const { ElicitRequestSchema } = await load("@modelcontextprotocol/sdk/types.js");

const server = JSON.parse(serverJSON);

async function scenario(name, answer, path) {
  const capabilities = answer ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: "tsapproval", version: "1.0.0" }, { capabilities });
  const asked = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer === "accept" ? { action: "accept", content: {} } : { action: answer };
    });
  }
  await client.connect(new StdioClientTransport({ ...server, env: { ...process.env }, stderr: "inherit" }));
  try {
    const res = await client.callTool({ name: "research_save_note", arguments: { path, text: "kept by " + name } });
    return { name, asked, isError: !!res.isError, text: res.content.map((c) => c.text).join("\n") };
  } finally {
    await client.close();
  }
}

const scenarios = [
  await scenario("accepts", "accept", "notes/accepted.md"),
  await scenario("declines", "decline", "notes/declined.md"),
  await scenario("cannot ask", null, "notes/unasked.md"),
];
process.stdout.write(JSON.stringify({ scenarios }));
