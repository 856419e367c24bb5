// tstaskcall calls research_search_workspace, which runs only as a task,
// through the official MCP Tasks client (@modelcontextprotocol/ext-tasks)
// on the official TypeScript v2 client (@modelcontextprotocol/client)
// pinned to 2026-07-28, over streamable HTTP and over stdio. The tasks
// client's raw requests travel on the v2 client's own transport (the
// extension's methods are not the v2 client's to send). It prints, per
// transport, the negotiated protocol, the result types and task statuses
// the server answered, and the call's result. Then the v1 client
// (@modelcontextprotocol/sdk) at 2025-11-25 calls it over both as a task
// of that revision's core protocol, with its experimental tasks API
// (runV1). Last, over HTTP, it calls the tool again and
// follows its task on subscriptions/listen, checking each message with the
// Tasks package's 2026-07-28 schemas; it prints the methods and statuses
// heard, and the listen's result type ("listen"). Then over stdio, the
// Tasks client calls it and the program follows its task on a listen sent
// on the v2 client's transport, while the Tasks client settles the call:
// the notifications reach the Tasks client too ("stdioListen", with the
// call's text):
// {"calls": [{"name", "protocol", "answers": ["tools/call task working", ...], "isError", "text"}],
//  "listen": {"heard": ["notifications/tasks completed", ...], "result": "complete"},
//  "stdioListen": {"heard": [...], "result": "complete", "text": "..."}}.
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
const tasksDir = join(toolsDir, "node_modules", "@modelcontextprotocol", "ext-tasks", "dist");
const tasks = await import(pathToFileURL(join(tasksDir, "client", "index.js")).href);
const schemas = await import(pathToFileURL(join(tasksDir, "core", "v2", "index.js")).href);

const clientInfo = { name: "tstaskcall", version: "1.0.0" };
const capabilities = { extensions: { "io.modelcontextprotocol/tasks": {} } };

// rawDispatcher sends JSON-RPC requests on transport, whose client reads
// every other message, and resolves each with its response.
// Notifications go to onNotification, when set, before the client.
function rawDispatcher(transport, answers, onNotification) {
  const waiting = new Map();
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const done = message && typeof message.id === "string" ? waiting.get(message.id) : undefined;
    if (message && message.method && message.id === undefined) onNotification?.(message);
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

// runV1 calls the tool with the v1 client at 2025-11-25 through its
// experimental tasks API, which reads the tool's taskSupport from the
// list: callToolStream asks for a task, polls tasks/get until the task
// ends, then takes its result with tasks/result. The answers are the
// stream's messages ("taskCreated working", "taskStatus completed",
// "result"), then whether tasks/list has the task ("tasks/list has it").
async function runV1(name, transport) {
  const client = new ClientV1(clientInfo, { capabilities: {} });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const support = tools.find((t) => t.name === "research_search_workspace")?.execution?.taskSupport;
    const answers = [];
    let result = {};
    let taskId = "";
    const stream = client.experimental.tasks.callToolStream({ name: "research_search_workspace", arguments: { query: "DefineMod" } });
    for await (const m of stream) {
      if (m.type === "taskCreated") {
        taskId = m.task.taskId;
        answers.push(`taskCreated ${m.task.status}`);
      } else if (m.type === "taskStatus") {
        answers.push(`taskStatus ${m.task.status}`);
      } else if (m.type === "result") {
        result = m.result;
        const related = result._meta?.["io.modelcontextprotocol/related-task"]?.taskId;
        answers.push(related === taskId ? "result" : `result of task ${related}`);
      } else {
        answers.push(`${m.type} ${m.error?.message ?? ""}`);
      }
    }
    const { tasks: listed } = await client.experimental.tasks.listTasks();
    if (listed.some((t) => t.taskId === taskId && t.status === "completed")) answers.push("tasks/list has it");
    return {
      name,
      protocol: transport.protocolVersion ?? "",
      taskSupport: support ?? "",
      tasksCapability: !!client.getServerCapabilities()?.tasks?.requests?.tools?.call,
      answers,
      isError: !!result.isError,
      text: (result.content ?? []).map((c) => c.text).join("\n"),
    };
  } finally {
    await client.close();
  }
}

// post sends one 2026-07-28 request declaring the extension, with the
// standard headers, and returns the messages of its answer.
async function post(id, method, name, params) {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      "Mcp-Name": name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }),
  });
  const text = await res.text();
  if (!res.headers.get("content-type")?.startsWith("text/event-stream")) return [JSON.parse(text)];
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
}

// listen calls the tool, follows its task on subscriptions/listen and
// checks what it hears against the Tasks package's schemas.
async function listen() {
  const [created] = await post(1, "tools/call", "research_search_workspace", {
    name: "research_search_workspace",
    arguments: { query: "DefineMod" },
  });
  const task = schemas.CreateTaskResultV2Schema.parse(created.result);
  const heard = [];
  let result = "";
  for (const m of await post(2, "subscriptions/listen", "", { notifications: { taskIds: [task.taskId] } })) {
    if (m.result) result = m.result.resultType;
    else heard.push(heardAs(m, task.taskId));
  }
  return { heard, result };
}

// heardAs checks a listen's message m with the Tasks package's schemas
// and returns what the report says of it: its method and status, and
// whether an acknowledgement agreed to taskId alone.
function heardAs(m, taskId) {
  if (m.method === "notifications/subscriptions/acknowledged") {
    const ack = schemas.TaskSubscriptionAcknowledgedNotificationsV2Schema.parse(m.params.notifications);
    return ack.taskIds.join(",") === taskId ? `${m.method} ok` : `${m.method} ${JSON.stringify(ack)}`;
  }
  if (m.method === "notifications/tasks") return `${m.method} ${schemas.TaskStatusNotificationV2Schema.parse(m).params.status}`;
  return JSON.stringify(m);
}

// listenStdio calls the tool with the Tasks client over stdio and follows
// its task on subscriptions/listen, sent on the same transport, until the
// listen ends, while the Tasks client settles the call.
async function listenStdio(server) {
  const transport = new StdioClientTransport({ ...server, env: { ...process.env }, stderr: "inherit" });
  const client = new v2.Client(clientInfo, { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(transport);
  const heard = [];
  let taskId = "";
  const dispatch = rawDispatcher(transport, [], (m) => {
    if (m.method === "notifications/tasks" || m.method === "notifications/subscriptions/acknowledged") heard.push(heardAs(m, taskId));
  });
  const session = tasks.createTaskSessionFromClient(client, {
    endpointId: "stdio listen",
    rawDispatch: dispatch,
    v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo, clientCapabilities: capabilities },
  });
  try {
    const execution = await session.callTool("research_search_workspace", { query: "DefineMod" });
    if (execution.kind !== "task") throw new Error(`stdio listen: got a ${execution.kind} call, want a task`);
    taskId = execution.handle.taskId;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": capabilities,
    };
    const listened = dispatch({
      method: "subscriptions/listen",
      params: { notifications: { taskIds: [taskId] }, _meta: meta },
    });
    const { outcome } = await execution.settle();
    const result = tasks.resultFromTaskOutcome(outcome);
    const answer = await listened;
    return {
      heard,
      result: answer.result?.resultType ?? JSON.stringify(answer.error),
      text: (result.content ?? []).map((c) => c.text).join("\n"),
    };
  } finally {
    await session.close();
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
process.stdout.write(JSON.stringify({ calls, listen: await listen(), stdioListen: await listenStdio(server) }));
