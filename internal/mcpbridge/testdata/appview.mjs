// appview plays an MCP Apps host in headless Chromium against a running
// `modhost mcp --http`: the official MCP TypeScript client connects to
// modhost (declaring the MCP Apps extension), and the official AppBridge of
// @modelcontextprotocol/ext-apps runs in the host page and shows
// research_search_workspace's view page through a sandbox proxy on a second
// origin, as SEP-1865 describes. It drives every phase of a real call and
// checks what the view shows, under the default sandbox and under
// sandbox="allow-scripts" alone, with a dark theme, and with the frame
// off screen, where Chromium runs no ResizeObserver in it; that the search
// table keeps the line number apart from the text; and that without tool
// proxying the view falls back to the tool's text. It prints a JSON report
// on stdout and exits non-zero when a check fails.
//
// usage: node appview.mjs TOOLS_DIR MCP_URL CHROMIUM
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [toolsDir, mcpURL, chromiumPath] = process.argv.slice(2);
const req = createRequire(join(toolsDir, "package.json"));
// load imports a package installed in the tools folder; a CommonJS one's
// exports are its default.
async function load(name) {
  const ns = await import(pathToFileURL(req.resolve(name)).href);
  return Object.assign({}, ns.default, ns);
}
const { chromium } = await load("playwright-core");
const { build } = await load("esbuild");
const { Client } = await load("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await load("@modelcontextprotocol/sdk/client/streamableHttp.js");

const TOOL = "research_search_workspace";
const UI = "io.modelcontextprotocol/ui";
const TIMEOUT = 60_000;
const failures = [];
const report = { scenarios: [] };
function check(ok, what) {
  if (!ok) failures.push(what);
}

// The MCP client, as a host has it.
const client = new Client({ name: "appview-host", version: "1.0.0" }, {
  capabilities: { extensions: { [UI]: { mimeTypes: ["text/html;profile=mcp-app"] } } },
});
await client.connect(new StreamableHTTPClientTransport(new URL(mcpURL)));
const { tools } = await client.listTools();
const tool = tools.find((t) => t.name === TOOL);
check(tools.some((t) => t.name === "modkit_render_view"), "the render tool is not listed to a client declaring the MCP Apps extension");
const uri = tool?._meta?.ui?.resourceUri;
check(uri, `${TOOL} names no view page`);
const page = (await client.readResource({ uri })).contents[0].text;

// callTask calls the search, which runs only as a task (MCP 2025-11-25's
// core tasks), with the client's experimental tasks API, and returns the
// task's result.
async function callTask(params) {
  for await (const m of client.experimental.tasks.callToolStream(params)) {
    if (m.type === "result") return m.result;
    if (m.type === "error") throw m.error;
  }
  throw new Error(`${params.name}: the task stream ended without a result`);
}

// hostCallTool calls a tool for the view, as a task when it runs only as
// one.
const hostCallTool = (params) =>
  tools.find((t) => t.name === params.name)?.execution?.taskSupport === "required" ? callTask(params) : client.callTool(params);

// Real results: a completed search with many hits, and a failed one.
const input = { query: "needle", limit: 40 };
const completed = await callTask({ name: TOOL, arguments: input });
check(!completed.isError && completed.structuredContent?.hits?.length === 40, `the search found ${completed.structuredContent?.hits?.length} hits, want 40`);
const failedInput = { query: "(", regex: true };
const failed = await callTask({ name: TOOL, arguments: failedInput });
check(failed.isError, "the search for an invalid pattern did not fail");

// The official AppBridge, bundled for the browser.
const bundle = (await build({
  stdin: {
    contents: "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';",
    resolveDir: toolsDir,
  },
  bundle: true, format: "iife", globalName: "ExtApps", platform: "browser", write: false, logLevel: "error",
})).outputFiles[0].text;

// The view's default CSP (MCP Apps 2026-01-26): the sandbox proxy is served
// with it, and the view's srcdoc frame inherits it.
const VIEW_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

const DARK = {
  "--color-background-primary": "rgb(20, 20, 24)",
  "--color-text-primary": "rgb(236, 236, 240)",
  "--color-text-secondary": "rgb(170, 170, 180)",
  "--font-sans": "sans-serif",
};

const hostPage = `<!doctype html><html><head><meta charset="utf-8"><title>host</title>
<style>body { margin: 0; background: ${DARK["--color-background-primary"]}; }</style>
<script src="/bridge.js"></script></head><body>
<script>
// startView shows a view page in a sandbox proxy on the second origin.
window.startView = async ({ html, sandbox, serverTools, proxy, offscreen }) => {
  const frame = document.createElement("iframe");
  frame.id = "view";
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  frame.style = "display: block; width: 640px; height: 400px; border: 0";
  // Off screen: far below the viewport, never scrolled to.
  if (offscreen) frame.style.cssText += "; position: absolute; top: 20000px";
  const ready = new Promise((resolve) => {
    window.addEventListener("message", function onReady(ev) {
      if (ev.source === frame.contentWindow && ev.data && ev.data.method === "ui/notifications/sandbox-proxy-ready") {
        window.removeEventListener("message", onReady);
        resolve();
      }
    });
  });
  frame.src = proxy;
  document.body.appendChild(frame);
  await ready;
  const caps = serverTools ? { serverTools: {} } : {};
  const bridge = new ExtApps.AppBridge(null, { name: "appview-host", version: "1.0.0" }, caps, {
    hostContext: { theme: "dark", styles: { variables: ${JSON.stringify(DARK)} }, displayMode: "inline", platform: "web" },
  });
  if (serverTools) bridge.oncalltool = (params) => window.hostCallTool(params);
  window.sizes = [];
  bridge.onsizechange = ({ height }) => {
    if (typeof height === "number") {
      frame.style.height = height + "px";
      window.sizes.push(height);
    }
  };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new ExtApps.PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready",
    params: sandbox ? { html, sandbox } : { html } }, "*");
  await initialized;
  window.bridge = bridge;
};
</script></body></html>`;

// The sandbox proxy: relays messages between the host and the view's frame,
// which it loads with the host's HTML and sandbox (default: scripts and the
// proxy's own origin, as the reference host does).
const proxyPage = `<!doctype html><html><head><meta charset="utf-8"><title>sandbox</title>
<style>html, body { margin: 0; height: 100%; background: transparent; } iframe { display: block; width: 100%; height: 100%; border: 0; }</style>
</head><body><script>
const inner = document.createElement("iframe");
inner.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
document.body.appendChild(inner);
window.addEventListener("message", (ev) => {
  if (ev.source === window.parent) {
    const m = ev.data;
    if (m && m.method === "ui/notifications/sandbox-resource-ready") {
      if (typeof m.params.sandbox === "string") inner.setAttribute("sandbox", m.params.sandbox);
      inner.srcdoc = m.params.html;
    } else if (inner.contentWindow) {
      inner.contentWindow.postMessage(m, "*");
    }
  } else if (ev.source === inner.contentWindow) {
    window.parent.postMessage(ev.data, "*");
  }
});
window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, "*");
</script></body></html>`;

const server = createServer((request, response) => {
  const path = new URL(request.url, "http://x").pathname;
  const send = (type, body, headers = {}) => {
    response.writeHead(200, Object.assign({ "Content-Type": type }, headers));
    response.end(body);
  };
  if (path === "/host.html") send("text/html", hostPage);
  else if (path === "/bridge.js") send("text/javascript", bundle);
  else if (path === "/sandbox.html") send("text/html", proxyPage, { "Content-Security-Policy": VIEW_CSP });
  else if (path === "/favicon.ico") { response.writeHead(204); response.end(); }
  else { response.writeHead(404); response.end(); }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = server.address().port;
// Two origins on one server: the host on 127.0.0.1, the proxy on localhost.
const hostURL = `http://127.0.0.1:${port}/host.html`;
const proxyURL = `http://localhost:${port}/sandbox.html`;

const profile = mkdtempSync(join(tmpdir(), "appview-chromium-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

// viewFrame returns the frame that holds the view page.
async function viewFrame(p) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const f = p.frames().find((f) => f.parentFrame() && f.parentFrame() !== p.mainFrame());
    if (f) return f;
    if (Date.now() > deadline) throw new Error("no view frame");
    await new Promise((r) => setTimeout(r, 20));
  }
}

// until waits for the view's visible text to satisfy ok.
async function until(frame, ok, what) {
  const deadline = Date.now() + TIMEOUT;
  let text = "";
  for (;;) {
    text = await frame.evaluate(() => document.getElementById("root").innerText);
    if (ok(text)) return text;
    if (Date.now() > deadline) {
      failures.push(`${what}: the view shows ${JSON.stringify(text)}`);
      return text;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

// settled waits until the frame's height is the view's content height, and
// returns both.
async function settled(p, frame, what) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const content = await frame.evaluate(() => Math.ceil(document.getElementById("root").getBoundingClientRect().height));
    const height = await p.evaluate(() => document.getElementById("view").getBoundingClientRect().height);
    if (Math.abs(content - height) <= 1) return height;
    if (Date.now() > deadline) {
      failures.push(`${what}: frame ${height}px for ${content}px of content`);
      return height;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

try {
  // run shows the view in a new page and drives a call's phases, each sent
  // with the real data as evaluate's argument.
  const run = async (name, opts) => {
    const s = { name, sandbox: opts.sandbox || "allow-scripts allow-same-origin allow-forms", serverTools: opts.serverTools, phases: {} };
    report.scenarios.push(s);
    const p = await browser.newPage();
    const errors = [];
    p.on("pageerror", (e) => errors.push(String(e)));
    p.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    await p.exposeFunction("hostCallTool", hostCallTool);
    await p.goto(hostURL);
    await p.evaluate((args) => window.startView(args), { html: page, sandbox: opts.sandbox, serverTools: opts.serverTools, proxy: proxyURL, offscreen: !!opts.offscreen });
    const frame = await viewFrame(p);
    const step = async (key, send, arg, ok) => {
      await p.evaluate(send, arg);
      const text = await until(frame, ok, `${name}: ${key}`);
      const height = await settled(p, frame, `${name}: ${key}`);
      s.phases[key] = { text, height };
    };
    if (opts.serverTools) {
      await step("preparing", (a) => window.bridge.sendToolInputPartial({ arguments: a }), { query: "need" },
        (t) => t.includes("Preparing a search for the text need"));
      await step("running", (a) => window.bridge.sendToolInput({ arguments: a }), input,
        (t) => t.includes("Searching the workspace for the text needle"));
      await step("completed", (r) => window.bridge.sendToolResult(r), completed,
        (t) => t.includes("40 matches for needle") && t.includes("notes.txt"));
      // The gap between the end of a line number and the start of its text.
      s.columnGap = await frame.evaluate(() => {
        const row = document.querySelector("#view tbody tr");
        const box = (cell) => { const r = document.createRange(); r.selectNodeContents(cell); return r.getBoundingClientRect(); };
        return Math.round(box(row.cells[2]).left - box(row.cells[1]).right);
      });
      check(s.columnGap >= 8, `${name}: the Line and Text columns are ${s.columnGap}px apart, want at least 8`);
      await step("failed", async (r) => {
        await window.bridge.sendToolInput({ arguments: { query: "(", regex: true } });
        await window.bridge.sendToolResult(r);
      }, failed, (t) => t.includes("The search for ( failed") && t.includes("regex"));
      await step("cancelled", (a) => window.bridge.sendToolCancelled({ reason: a }), "user action",
        (t) => t.includes("failed: cancelled: user action"));
    } else {
      await step("running", (a) => window.bridge.sendToolInput({ arguments: a }), input,
        (t) => t.includes("Running research_search_workspace"));
      const want = completed.content[0].text.split("\n")[1];
      await step("completed", (r) => window.bridge.sendToolResult(r), completed, (t) => t.includes(want));
    }
    s.theme = await frame.evaluate(() => ({
      theme: document.documentElement.dataset.theme,
      color: getComputedStyle(document.body).color,
      colorScheme: getComputedStyle(document.documentElement).colorScheme,
    }));
    s.sizes = await p.evaluate(() => window.sizes);
    s.errors = errors;
    await p.close();
    check(errors.length === 0, `${name}: page errors: ${errors.join("; ")}`);
    check(s.theme.theme === "dark" && s.theme.colorScheme === "dark" && s.theme.color === DARK["--color-text-primary"],
      `${name}: the host's dark theme is not applied: ${JSON.stringify(s.theme)}`);
    // The frame starts 400px high: it must grow for the long result and
    // shrink below its start for a one-line phase.
    const last = opts.serverTools ? s.phases.cancelled : s.phases.running;
    check(s.phases.completed && s.phases.completed.height > 400 && last && last.height < 100,
      `${name}: the frame does not follow the content: ${JSON.stringify(s.sizes)}`);
  };
  await run("default sandbox", { serverTools: true });
  await run("allow-scripts only", { sandbox: "allow-scripts", serverTools: true });
  await run("off screen", { serverTools: true, offscreen: true });
  await run("no tool proxying", { sandbox: "allow-scripts", serverTools: false });
} catch (e) {
  failures.push(String(e && e.stack || e));
} finally {
  await browser.close();
  server.close();
  await client.close();
  rmSync(profile, { recursive: true, force: true });
}
report.failures = failures;
process.stdout.write(JSON.stringify(report, null, 2) + "\n");
process.exit(failures.length ? 1 : 0);
