// apphost plays an MCP Apps host for a view page's script, in Node with a
// minimal fake DOM: it answers ui/initialize, sends the tool-input, result
// and cancellation notifications of a call, answers each render request with
// "<p>PHASE</p>", and prints on stdout, as JSON, what the page did.
//
// usage: node apphost.mjs PAGE.html
import { readFileSync } from "node:fs";
import vm from "node:vm";

const html = readFileSync(process.argv[2], "utf8");
const script = html.match(/<script>([\s\S]*)<\/script>/)[1];

const log = { sent: [], renders: [], srcdocs: [], sizes: 0, statuses: [] };
const listeners = [];
const parent = {
  postMessage(msg, target) {
    log.sent.push({ method: msg.method, target });
    onPageMessage(JSON.parse(JSON.stringify(msg)));
  },
};

function element(id) {
  const el = {
    id, hidden: false, style: {}, _srcdoc: "", _text: "", loadListeners: [],
    addEventListener(type, fn) { if (type === "load") el.loadListeners.push(fn); },
    contentDocument: { documentElement: { scrollHeight: 40 } },
    get textContent() { return el._text; },
    set textContent(v) { el._text = v; if (v) log.statuses.push(v); },
    get srcdoc() { return el._srcdoc; },
    set srcdoc(v) { el._srcdoc = v; log.srcdocs.push(v); setTimeout(() => el.loadListeners.forEach((f) => f()), 0); },
  };
  return el;
}
const elements = { status: element("status"), view: element("view") };
const window = {
  parent,
  addEventListener(type, fn) { if (type === "message") listeners.push(fn); },
};
const document = {
  getElementById: (id) => elements[id],
  documentElement: { scrollWidth: 300, scrollHeight: 60 },
};

function toPage(msg) {
  const ev = { source: parent, data: Object.assign({ jsonrpc: "2.0" }, msg) };
  listeners.forEach((f) => f(ev));
}

let initialized;
const ready = new Promise((resolve) => { initialized = resolve; });

function onPageMessage(msg) {
  if (msg.jsonrpc !== "2.0") throw new Error("message without jsonrpc 2.0");
  switch (msg.method) {
    case "ui/initialize":
      log.initialize = msg.params;
      setTimeout(() => toPage({ id: msg.id, result: {
        protocolVersion: msg.params.protocolVersion,
        hostInfo: { name: "apphost", version: "1" },
        hostCapabilities: { serverTools: {} },
        hostContext: {},
      } }), 0);
      break;
    case "ui/notifications/initialized":
      initialized();
      break;
    case "ui/notifications/size-changed":
      log.sizes++;
      break;
    case "tools/call":
      log.renders.push(msg.params);
      setTimeout(() => toPage({ id: msg.id, result: {
        content: [{ type: "text", text: "<p>" + msg.params.arguments.phase + "</p>" }],
        structuredContent: { html: "<p>" + msg.params.arguments.phase + "</p>" },
      } }), 0);
      break;
    case undefined:
      log.answered = msg;
      break;
    default:
      throw new Error("unexpected message " + JSON.stringify(msg));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

vm.runInNewContext(script, { window, document, Object, Promise, Map, Error, JSON });
await Promise.race([ready, new Promise((_, reject) => setTimeout(() => reject(new Error("no initialized notification")), 2000))]);

toPage({ method: "ui/notifications/tool-input-partial", params: { arguments: { title: "a" } } });
await settle();
toPage({ method: "ui/notifications/tool-input", params: { arguments: { title: "a b" } } });
await settle();
toPage({ method: "ui/notifications/tool-result", params: {
  content: [{ type: "text", text: "2 words" }], structuredContent: { title: "a b", words: 2 },
} });
await settle();
toPage({ method: "ui/notifications/tool-result", params: {
  isError: true, content: [{ type: "text", text: "Tool failed: no luck" }],
} });
await settle();
toPage({ method: "ui/notifications/tool-cancelled", params: { reason: "user action" } });
await settle();
// A request the page does not serve gets an error response.
toPage({ id: 99, method: "ui/unknown", params: {} });
await settle();

log.frameHeight = elements.view.style.height;
process.stdout.write(JSON.stringify(log));
