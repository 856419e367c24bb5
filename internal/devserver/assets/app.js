// The modhost dev inspector: no framework, no build step. Everything the
// page shows from a mod goes in through textContent or a sandboxed frame.
"use strict";

const token = document.querySelector('meta[name="modhost-token"]').content;
let state = null;      // /api/state
let selected = null;   // {kind, key}
let forms = {};        // tool name -> {schema, form} kept across reloads
const streams = {};    // call id -> EventSource

// el builds an element: el("div", {class: "x", onclick: f}, child, "text").
// icon is the first of icons (a mod's, a tool's, a slash command's or a
// resource's, from its manifest) as
// an image of size px, or null without one. The manifest's check keeps
// each src a data: URI of an image type or an https URL.
function icon(icons, px) {
  const ic = (icons || [])[0];
  if (!ic || !/^(data:image\/|https:\/\/)/.test(ic.src)) return null;
  return el("img", {class: "icon", src: ic.src, alt: "", width: px, height: px});
}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== undefined && k !== null && k !== false) e.append(k);
  return e;
}

async function api(method, path, body) {
  const opts = {method, headers: {"X-Modhost-Token": token}};
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({error: r.status + " " + r.statusText}));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function sse(path) { return new EventSource(path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token)); }

// ---- state and navigation ----

async function refresh() { show(await api("GET", "/api/state")); }

// show renders a state, from the page itself at first, then from /api/state.
function show(st) {
  state = st;
  document.getElementById("workspace").textContent = "workspace " + state.workspace;
  const agentSel = document.getElementById("agent");
  const cur = agentSel.value || (show.first ? "" : state.agent);
  show.first = true;
  agentSel.replaceChildren(el("option", {value: ""}, "no agent"));
  for (const m of state.mods) for (const a of m.agents || []) agentSel.append(el("option", {value: a.name, selected: a.name === cur}, a.name));
  renderBanners();
  renderSide();
  renderMain();
}

// renderBanners shows each mod whose last edit did not build above every
// panel: where, with file:line:col, and the compiler's own words.
function renderBanners() {
  document.getElementById("banners").replaceChildren(...state.builds.map(b => el("div", {class: "banner build-banner", role: "alert"},
    el("b", {}, `⚠ ${b.mod || b.dir}: the last edit does not ${b.stage === "load" ? "load" : "build"} (${b.stage} step)`),
    el("span", {class: "muted"}, " — the last good build keeps serving. ", el("a", {href: hrefOf("build", b.dir)}, "details")),
    el("pre", {class: "build-problems"}, b.problems.map(line => {
      const m = /^(.*?:\d+:\d+): (.*)$/.exec(line);
      return el("div", {}, m ? [el("span", {class: "loc"}, m[1]), ": " + m[2]] : line);
    })))));
}

function findTool(name) {
  for (const m of state.mods) for (const t of m.tools) if (t.name === name) return {mod: m, tool: t};
  return null;
}

// Each panel has a URL: its kind and key in the fragment, #tool/NAME,
// #call/ID, …, so links, the back button and a reload all work.
const KINDS = ["mod", "tool", "command", "slash", "resource", "call", "build", "unavailable"];
function hrefOf(kind, key) { return "#" + kind + "/" + encodeURIComponent(key); }
function route() {
  const m = /^#([a-z]+)\/(.+)$/.exec(location.hash);
  if (!m || !KINDS.includes(m[1])) return null;
  try { return {kind: m[1], key: decodeURIComponent(m[2])}; } catch { return null; }
}

// select shows a panel by going to its URL; the hashchange renders it.
function select(kind, key) {
  const h = hrefOf(kind, key);
  if (location.hash === h) { selected = {kind, key}; renderSide(); renderMain(); }
  else location.hash = h;
}
window.addEventListener("hashchange", () => { selected = route(); pageTab = "main"; renderSide(); renderMain(); });

function renderSide() {
  const side = document.getElementById("side");
  const link = (kind, key, label, title) => el("a", {class: selected && selected.kind === kind && selected.key === key ? "sel" : null,
    title: title || label, href: hrefOf(kind, key), "data-kind": kind, "data-key": key}, label);
  const kids = [];
  if (state.builds.length) {
    kids.push(el("h3", {}, "Build errors"));
    for (const b of state.builds) kids.push(link("build", b.dir, "⚠ " + (b.mod || b.dir), b.dir));
  }
  if (state.unavailable.length) {
    kids.push(el("h3", {}, "Unavailable"));
    for (const u of state.unavailable) kids.push(link("unavailable", u.dir, "✖ " + (u.mod || u.dir), u.reason));
  }
  for (const m of state.mods) {
    kids.push(el("h3", {}, icon(m.icons, 16), m.displayName || m.id));
    kids.push(link("mod", m.id, "about " + m.id));
    for (const t of m.tools) kids.push(link("tool", t.name, t.name, t.title));
    for (const c of m.commands || []) kids.push(link("command", c.id, "⌘ " + c.id, c.title));
    for (const c of m.slashCommands || []) kids.push(link("slash", c.id, "/" + c.id, c.description));
    for (const r of m.resources || []) kids.push(link("resource", r.uri, "▤ " + r.uri, r.description));
    for (const r of m.resourceTemplates || []) kids.push(link("resource", r.uriTemplate, "▤ " + r.uriTemplate, r.description));
  }
  if (state.calls.length) {
    kids.push(el("h3", {}, "History"));
    for (const c of [...state.calls].reverse()) {
      kids.push(el("a", {class: selected && selected.kind === "call" && selected.key === c.id ? "sel" : null,
        href: hrefOf("call", c.id), "data-kind": "call", "data-key": c.id},
        el("span", {class: "badge " + c.status}, c.status), "#" + c.id + " " + c.tool));
    }
  }
  // Keep the reader's place; the first render has none, and forces no
  // layout to learn it.
  const scroll = side.firstChild ? side.scrollTop : 0;
  side.replaceChildren(...kids);
  if (scroll) side.scrollTop = scroll;
}

function renderMain() {
  const main = document.getElementById("main");
  // Renderers leave out a part with null, which replaceChildren would
  // show as the text "null".
  const put = kids => main.replaceChildren(...kids.filter(k => k !== undefined && k !== null && k !== false));
  if (!selected) {
    put([el("h2", {}, "Mods"), el("p", {class: "muted"},
      `${state.mods.length} loaded, ${state.unavailable.length} unavailable. Pick a tool, command or mod on the left.`),
      state.reloads ? el("p", {class: "muted"}, `${state.reloads} reload(s) so far.`) : null]);
    return;
  }
  const {kind, key} = selected;
  if (kind === "call") return renderCall(key);
  put(renderers[kind] ? renderers[kind](key) : [el("p", {}, "Nothing here.")]);
}

const renderers = {
  mod(id) {
    const m = state.mods.find(m => m.id === id);
    if (!m) return [el("p", {class: "error"}, `mod ${id} is no longer loaded`)];
    return [
      el("h2", {}, icon(m.icons, 24), m.displayName || m.id), el("p", {}, m.description),
      el("table", {}, el("tr", {}, el("th", {}, "id"), el("td", {}, m.id)), el("tr", {}, el("th", {}, "package"), el("td", {}, m.goPackage)),
        el("tr", {}, el("th", {}, "format"), el("td", {}, m.formatVersion)),
        el("tr", {}, el("th", {}, "permissions"), el("td", {}, ...(state.permissions[m.id] || []).map(line => el("div", {}, line)))),
        el("tr", {}, el("th", {}, "confined"), el("td", {}, state.unconfined ? "not fully: " + state.unconfined : "yes, by the kernel (Landlock, seccomp)"))),
      el("h3", {}, "Tools"), list(m.tools, t => [icon(t.icons || m.icons, 16), el("a", {href: hrefOf("tool", t.name)}, el("b", {}, t.name)), " — ", t.title || "", " ", kindBadge(t)]),
      el("h3", {}, "Commands"), list(m.commands, c => [el("a", {href: hrefOf("command", c.id)}, el("b", {}, c.id)), " — ", c.title]),
      el("h3", {}, "Slash commands"), list(m.slashCommands, c => [icon(c.icons || m.icons, 16), el("a", {href: hrefOf("slash", c.id)}, el("b", {}, "/" + c.id)), " — ", c.description]),
      el("h3", {}, "Resources"), list([...(m.resources || []).map(r => [r.uri, r.icons]), ...(m.resourceTemplates || []).map(r => [r.uriTemplate, r.icons])],
        ([uri, icons]) => [icon(icons || m.icons, 16), el("a", {href: hrefOf("resource", uri)}, el("b", {}, uri))]),
      el("h3", {}, "Hooks"), list(m.hooks, h => ["before ", el("b", {}, h.beforeAction)]),
      el("h3", {}, "Agents"), list(m.agents, a => [el("b", {}, a.name), " — ", a.description || "", el("div", {class: "muted"}, "may call: " + a.tools.join(", "))]),
    ];
  },
  unavailable(dir) {
    const u = state.unavailable.find(u => u.dir === dir);
    if (!u) return [el("p", {}, "This mod loads now.")];
    return [el("h2", {}, (u.mod || dir) + " is unavailable"), el("p", {}, el("b", {}, u.reason)), el("pre", {class: "error"}, u.error)];
  },
  build(dir) {
    const b = state.builds.find(b => b.dir === dir);
    if (!b) return [el("p", {}, "This mod builds now.")];
    return [el("h2", {}, `${b.mod || dir}: ${b.stage} failed`), el("p", {class: "muted"}, `in ${b.dir}; the last good build keeps serving`),
      el("pre", {class: "error build-problems"}, b.problems.join("\n"))];
  },
  tool(name) { return renderTool(name); },
  command(id) { return renderCommand(id, false); },
  slash(id) { return renderCommand(id, true); },
  resource(uri) { return renderResource(uri); },
};

function list(items, f) {
  if (!items || !items.length) return el("p", {class: "muted"}, "none");
  return el("ul", {}, items.map(i => el("li", {}, f(i))));
}

function kindBadge(t) { return el("span", {class: "badge"}, t.hasView ? "rendered, with view" : t.kind); }

// ---- schemas ----

function resolve(root, s) {
  for (let i = 0; s && s.$ref && i < 32; i++) {
    const name = decodeURIComponent(s.$ref.replace(/^#\/\$defs\//, "")).replace(/~1/g, "/").replace(/~0/g, "~");
    s = Object.assign({}, (root.$defs || {})[name], s.description ? {description: s.description} : {});
  }
  return s || {};
}

// nullable returns the non-null schema of anyOf [null, X] or type [T, "null"].
function nullable(root, s) {
  if (s.anyOf && s.anyOf.length === 2) {
    const i = s.anyOf.findIndex(x => x.type === "null");
    if (i >= 0) return Object.assign({}, resolve(root, s.anyOf[1 - i]), s.description ? {description: s.description} : {});
  }
  if (Array.isArray(s.type) && s.type.includes("null") && s.type.length === 2) return Object.assign({}, s, {type: s.type.find(t => t !== "null")});
  return null;
}

function typeName(root, s) {
  s = resolve(root, s);
  const n = nullable(root, s);
  if (n) return typeName(root, n) + " or null";
  if (s.enum) return "one of " + s.enum.map(v => JSON.stringify(v)).join(", ");
  if (s.type === "array") return "array of " + typeName(root, s.items || {});
  if (s.type === "object" && s.additionalProperties && typeof s.additionalProperties === "object") return "object of " + typeName(root, s.additionalProperties);
  return s.type || "any JSON value";
}

// limits says what a form field's schema allows, beside its input.
function limits(s) {
  const out = [];
  const add = (k, label) => { if (s[k] !== undefined) out.push(label + " " + s[k]); };
  add("minLength", "min length"); add("maxLength", "max length"); add("minimum", "≥"); add("maximum", "≤");
  add("exclusiveMinimum", ">"); add("exclusiveMaximum", "<"); add("minItems", "min items"); add("maxItems", "max items");
  add("pattern", "pattern"); add("format", "format"); add("contentEncoding", "encoding");
  if (s.propertyNames && s.propertyNames.pattern) out.push("keys match " + s.propertyNames.pattern);
  if (s.default !== undefined) out.push("default " + JSON.stringify(s.default));
  return out.join(", ");
}

// schemaTable shows a schema's field tree, a view the server flattens once
// for the page and modhost inspect alike (package schemaview).
function schemaTable(view) {
  if (!view) return el("p", {class: "muted"}, "none");
  if (!view.fields.length) return el("p", {class: "muted"}, view.type === "object" ? "no fields" : view.type);
  return el("table", {class: "schema"}, el("tr", {}, ["field", "type", "required", "limits", "description"].map(h => el("th", {}, h))),
    view.fields.map(f => el("tr", {}, [
      el("td", {}, el("code", {}, f.path)), el("td", {}, f.type), el("td", {}, f.required ? "yes" : ""),
      el("td", {}, (f.constraints || []).join(", ")), el("td", {}, f.description || ""),
    ])));
}

// viewsOf returns the schema views of a mod.
function viewsOf(mod) {
  return (state.views || {})[mod.id] || {tools: {}, clientActions: {}};
}

// ---- forms ----
// A field is {node, get(path, slots)}: get returns the value, or undefined
// for "leave out", and records its problem slot under its JSON path.

function field(root, s, label, required) {
  s = resolve(root, s);
  const desc = s.description;
  const n = nullable(root, s);
  let f;
  if (n && n.type === "boolean" && !required && label !== null) {
    // An optional boolean that may be null is one control too.
    const sel = el("select", {class: "tristate"}, ["unset", "true", "false", "null"].map(v => el("option", {value: v}, v)));
    f = {node: sel, get: () => sel.value === "unset" ? undefined : JSON.parse(sel.value), tristate: true};
  } else if (n) {
    const inner = field(root, n, null, true);
    const isNull = el("input", {type: "checkbox", checked: true});
    const box = el("div", {class: "kv", hidden: true}, inner.node);
    isNull.addEventListener("change", () => { box.hidden = isNull.checked; });
    f = {node: el("div", {}, el("label", {}, isNull, " null"), box), get: (p, slots) => isNull.checked ? null : inner.get(p, slots)};
  } else if (s.enum) {
    const def = s.enum.findIndex(v => JSON.stringify(v) === JSON.stringify(s.default));
    const sel = el("select", {}, s.enum.map((v, i) => el("option", {value: i, selected: i === def}, JSON.stringify(v))));
    f = {node: sel, get: () => s.enum[+sel.value]};
  } else if (s.type === "boolean" && !required && label !== null) {
    // An optional boolean is one control: left out, true or false.
    const unset = "unset" + (typeof s.default === "boolean" ? ` (the tool's default, ${s.default})` : "");
    const sel = el("select", {class: "tristate"}, el("option", {value: ""}, unset), el("option", {value: "true"}, "true"), el("option", {value: "false"}, "false"));
    f = {node: sel, get: () => sel.value === "" ? undefined : sel.value === "true", tristate: true};
  } else if (s.type === "boolean") {
    const cb = el("input", {type: "checkbox", checked: s.default === true});
    f = {node: cb, get: () => cb.checked};
  } else if (s.type === "integer" || s.type === "number") {
    const inp = el("input", {type: "number", step: s.type === "integer" ? "1" : "any", min: s.minimum, max: s.maximum});
    // A required number starts at its default, else the value nearest 0
    // it allows; an empty one is left out, and the validator says so.
    if (typeof s.default === "number") inp.value = s.default;
    else if (required) inp.value = Math.min(Math.max(0, s.minimum ?? 0), s.maximum ?? Infinity);
    f = {node: inp, get: () => inp.value === "" ? undefined : Number(inp.value), input: inp};
  } else if (s.type === "string") {
    const inp = el("input", {type: "text", minlength: s.minLength, maxlength: s.maxLength, pattern: s.pattern,
      placeholder: s.format || (s.contentEncoding ? s.contentEncoding + " data" : "")});
    if (typeof s.default === "string") inp.value = s.default;
    f = {node: inp, get: () => inp.value, input: inp};
  } else if (s.type === "object" && s.properties) {
    const subs = Object.entries(s.properties).map(([k, v]) => [k, field(root, v, k, (s.required || []).includes(k))]);
    f = {node: el("div", {class: "kv"}, subs.map(([, sf]) => sf.wrap)), get: (p, slots) => {
      const o = {};
      for (const [k, sf] of subs) { const v = sf.get(p + "/" + k, slots); if (v !== undefined) o[k] = v; }
      return o;
    }};
  } else if (s.type === "object" && s.additionalProperties && typeof s.additionalProperties === "object") {
    const rows = el("div", {class: "kv"});
    const entries = [];
    const add = () => {
      const key = el("input", {type: "text", placeholder: "key"});
      const vf = field(root, s.additionalProperties, null, true);
      const entry = {key, vf};
      const row = el("div", {class: "row"}, el("div", {}, key), el("div", {class: "grow"}, vf.wrap),
        el("button", {type: "button", onclick: () => { entries.splice(entries.indexOf(entry), 1); row.remove(); changed(); }}, "remove"));
      entries.push(entry); rows.append(row); changed();
    };
    f = {node: el("div", {}, rows, el("button", {type: "button", onclick: add}, "add entry")), get: (p, slots) => {
      const o = {};
      for (const e of entries) o[e.key.value] = e.vf.get(p + "/" + e.key.value.replace(/~/g, "~0").replace(/\//g, "~1"), slots);
      return o;
    }};
  } else if (s.type === "array") {
    const rows = el("div", {class: "kv"});
    const items = [];
    const add = () => {
      const vf = field(root, s.items || {}, null, true);
      const row = el("div", {class: "row"}, el("div", {class: "grow"}, vf.wrap),
        el("button", {type: "button", onclick: () => { items.splice(items.indexOf(vf), 1); row.remove(); changed(); }}, "remove"));
      items.push(vf); rows.append(row); changed();
    };
    for (let i = 0; i < (s.minItems || 0); i++) add();
    f = {node: el("div", {}, rows, el("button", {type: "button", onclick: add}, "add item")), get: (p, slots) => items.map((vf, i) => vf.get(p + "/" + i, slots))};
  } else {
    const ta = el("textarea", {rows: 2, placeholder: "any JSON"});
    f = {node: ta, get: () => { try { return ta.value.trim() === "" ? null : JSON.parse(ta.value); } catch { return ta.value; } }};
  }
  const slot = el("div", {class: "problem"});
  let include = null;
  if (!required && !f.tristate) {
    include = el("input", {type: "checkbox", title: s.default !== undefined ? "send this field; left out, the tool uses its default" : "send this field"});
    f.node.addEventListener("input", () => { include.checked = true; });
    f.node.addEventListener("change", (ev) => { if (ev.target !== include) include.checked = true; });
  }
  const lim = limits(n || s);
  f.wrap = el("div", {class: "field"},
    label !== null ? el("label", {}, include, " ", label, required ? " *" : " (optional)", " ", el("span", {class: "muted"}, typeName(root, s))) : null,
    desc && label !== null ? el("div", {class: "desc"}, desc) : null,
    lim ? el("div", {class: "desc"}, lim) : null, f.node, slot);
  // A field's problems show once the person has changed it, or pressed Run.
  const touch = () => { f.wrap.dataset.touched = "1"; };
  f.wrap.addEventListener("input", touch);
  f.wrap.addEventListener("change", touch);
  const get = f.get;
  f.get = (p, slots) => {
    slots[p || "/"] = slot;
    f.wrap.dataset.path = p || "/";
    if (include && !include.checked) return undefined;
    return get(p, slots);
  };
  return f;
}

let changedTimer = null;
let onFormChange = null;
function changed() { clearTimeout(changedTimer); changedTimer = setTimeout(() => onFormChange && onFormChange(), 150); }

// keptForm returns the tool's form, kept while its input schema stays the
// same.
function keptForm(tool) {
  const schemaText = JSON.stringify(tool.inputSchema);
  let kept = forms[tool.name];
  if (!kept || kept.schema !== schemaText) {
    const root = tool.inputSchema;
    kept = forms[tool.name] = {schema: schemaText, form: field(root, root, null, true), raw: el("textarea", {rows: 8, class: "raw"}),
      mode: "form", problems: el("div", {class: "problem top-problems"})};
    kept.form.get("", {}); // names each field by its JSON path
  }
  return kept;
}

function renderTool(name) {
  const found = findTool(name);
  if (!found) return [el("p", {class: "error"}, `tool ${name} is no longer loaded`)];
  const {mod, tool} = found;
  const kept = keptForm(tool);
  const ann = tool.annotations;
  const formBox = el("div", {class: "form", hidden: kept.mode !== "form"}, kept.form.node);
  const rawBox = el("div", {hidden: kept.mode !== "raw"}, kept.raw);
  const value = () => {
    if (kept.mode === "raw") return {text: kept.raw.value.trim() || "{}", slots: {}};
    const slots = {};
    return {text: JSON.stringify(kept.form.get("", slots)), slots};
  };
  // check asks the server to judge the input. No problem shows before the
  // person has typed: a field's once it was changed, all of them once Run
  // was pressed.
  const check = async () => {
    const {text, slots} = value();
    let res;
    try { res = await api("POST", "/api/check", {tool: name, input: rawJSON(text)}); } catch (e) { kept.problems.textContent = e.message; return false; }
    for (const s of Object.values(slots)) s.textContent = "";
    kept.problems.textContent = "";
    for (const p of res.problems) {
      let path = p.path, slot = slots[path];
      while (!slot && path && path !== "/") { path = path.slice(0, path.lastIndexOf("/")) || "/"; slot = slots[path]; }
      const touched = kept.submitted || (slot && kept.mode === "form" ? slot.parentElement.dataset.touched : kept.touched);
      if (!touched) continue;
      const line = el("div", {}, (slot && path === p.path ? "" : p.path + ": ") + p.message);
      (slot || kept.problems).append(line);
    }
    const main = document.getElementById("main");
    main.dataset.checks = +(main.dataset.checks || 0) + 1; // the browser test waits on it
    return res.problems.length === 0;
  };
  onFormChange = check;
  const touchedAny = () => { kept.touched = true; changed(); };
  kept.form.node.oninput = touchedAny;
  kept.form.node.onchange = touchedAny;
  kept.raw.oninput = touchedAny;
  const tabs = el("div", {class: "tabs"},
    el("button", {type: "button", class: kept.mode === "form" ? "on" : null, onclick: () => { kept.mode = "form"; renderMain(); }}, "Form"),
    el("button", {type: "button", class: kept.mode === "raw" ? "on" : null, onclick: () => {
      if (kept.mode === "form") kept.raw.value = JSON.stringify(kept.form.get("", {}), null, 2);
      kept.mode = "raw"; renderMain();
    }}, "Raw JSON"));
  const run = async () => {
    kept.submitted = true;
    if (!await check()) return;
    const agent = document.getElementById("agent").value;
    const c = await api("POST", "/api/calls", {tool: name, input: rawJSON(value().text), agent});
    state.calls.push(c);
    select("call", c.id);
  };
  if (kept.touched || kept.submitted) setTimeout(check, 0);
  return [
    el("h2", {}, icon(tool.icons || mod.icons, 24), tool.title || tool.name), el("div", {}, el("code", {}, tool.name), " in mod ", el("b", {}, mod.id), " ", kindBadge(tool)),
    ...pageTabs(() => [
      tool.activity ? el("p", {}, "Activity label: ", el("i", {}, tool.activity)) : null,
      ann ? el("p", {}, ["readOnly", "destructive", "idempotent", "openWorld"].map(k => el("span", {class: "badge" + (ann[k] ? " running" : "")}, (ann[k] ? "" : "not ") + k))) : null,
      el("p", {}, tool.description),
      ...toolNotes(tool),
      el("h3", {}, "Call"), agentNote(tool.name), tabs, kept.problems, formBox, rawBox,
      el("p", {}, el("button", {class: "primary", id: "run", onclick: run}, "Run")),
      el("h3", {}, "Input"), schemaTable((viewsOf(mod).tools[tool.name] || {}).input),
      el("h3", {}, "Result"), schemaTable((viewsOf(mod).tools[tool.name] || {}).result),
      ...clientActionTables(mod, tool),
    ], () => clientReceives(tool.name, null)),
  ];
}

// ---- what a client receives ----

let pageTab = "main"; // "main" or "client", kept from panel to panel

// pageTabs returns the panel's two tabs, the panel itself and what an MCP
// client receives, and the chosen one's content.
function pageTabs(mainPart, clientPart) {
  const box = el("div", {class: "tab-body"});
  const bar = el("div", {class: "tabs page-tabs"});
  const draw = () => {
    bar.replaceChildren(...[["main", "Workbench"], ["client", "What a client receives"]].map(([k, label]) =>
      el("button", {type: "button", class: pageTab === k ? "on" : null, onclick: () => { pageTab = k; draw(); }}, label)));
    box.replaceChildren(...(pageTab === "main" ? mainPart() : clientPart()).filter(k => k !== undefined && k !== null && k !== false));
  };
  draw();
  box.redraw = draw;
  return [bar, box];
}

// clientReceives shows the tool's tools/list entry, and the call's
// tools/call result when a call's outcome is given, as modhost mcp gives
// them to an MCP client.
function clientReceives(toolName, outcome) {
  const entry = el("div", {class: "mcp-entry"}, el("p", {class: "muted"}, "loading…"));
  const agent = document.getElementById("agent").value;
  api("GET", `/api/tools/${encodeURIComponent(toolName)}/mcp` + (agent ? "?agent=" + encodeURIComponent(agent) : "")).then(r => {
    entry.replaceChildren(r.listed ? el("pre", {class: "json-raw"}, JSON.stringify(r.entry, null, 2)) : el("p", {class: "error mcp-why"}, "Not listed: " + r.why));
  }, e => entry.replaceChildren(el("p", {class: "error"}, e.message)));
  const kids = [el("p", {class: "muted"}, "What modhost mcp sends an MCP client, as the MCP Inspector shows it; on the wire the MCP SDK may add the protocol's envelope (resultType, the server's name in _meta).")];
  if (outcome !== undefined) {
    kids.push(el("h3", {}, "tools/call result"));
    if (!outcome) kids.push(el("p", {class: "muted"}, "The result arrives when the call ends."));
    else if (!outcome.mcp) kids.push(el("p", {class: "muted mcp-none"}, "None: modhost mcp does not offer this tool (see below)."));
    else kids.push(el("pre", {class: "json-raw mcp-result"}, JSON.stringify(outcome.mcp, null, 2)));
  }
  kids.push(el("h3", {}, "tools/list entry"), entry);
  return kids;
}

// scopeNote says which OAuth scopes a caller needs to see and use a tool,
// command, prompt or resource; null for none.
function scopeNote(scopes) {
  if (!scopes || !scopes.length) return null;
  return el("p", {class: "tool-note scope-note"}, "Needs the OAuth scopes ", el("code", {}, scopes.join(" ")),
    " where modhost asks for access tokens (modhost mcp --http --auth-issuer): a token without them neither sees nor uses it. This page acts as the local user, who holds every scope.");
}

// toolNotes says what a call of the tool involves beyond its schemas: a
// person's approval, the scopes it needs and where it runs.
function toolNotes(tool) {
  const notes = [scopeNote(tool.scopes)].filter(Boolean);
  const a = tool.approval;
  if (a) notes.push(el("p", {class: "tool-note approval-note"}, a.when === "always"
    ? ["Asks for a person's approval before every call (", el("i", {}, a.reason), "); this page asks with Approve and Deny."]
    : "Asks for a person's approval when the mod's rule picks the call from its input; this page asks with Approve and Deny."));
  if (tool.runs === "client") notes.push(el("p", {class: "tool-note runs-note"},
    "Runs only in the client application that calls it. Here the page is that client: run it, then give its one answer on the call's page. modhost mcp does not offer it."));
  if (tool.runs === "either") notes.push(el("p", {class: "tool-note runs-note"},
    "Runs in the client application when it handles the tool, else in its mod, as here."));
  return notes;
}

// clientActionTables shows each kind of client action the tool may emit,
// with its params as a table.
function clientActionTables(mod, tool) {
  return (tool.clientActions || []).flatMap(kind => {
    const k = (mod.clientActions || []).find(k => k.kind === kind);
    return [el("h3", {}, "Client action ", el("code", {}, kind)), k ? el("p", {}, k.description) : null, schemaTable(k && viewsOf(mod).clientActions[kind])];
  });
}

// agentNote says whether the agent the page acts as may call the tool.
function agentNote(toolName) {
  const name = document.getElementById("agent").value;
  if (!name) return null;
  for (const m of state.mods) for (const a of m.agents || []) if (a.name === name) {
    return a.tools.includes(toolName) ? el("p", {class: "muted"}, `Acting as agent ${name}, which may call this tool.`)
      : el("p", {class: "error agent-note"}, `Acting as agent ${name}, whose allowlist (${a.tools.join(", ")}) leaves this tool out: a call is refused.`);
  }
  return null;
}

// rawJSON passes the text through as JSON when it parses, else as a string
// the server reports as malformed.
function rawJSON(text) { try { return JSON.parse(text); } catch { return text; } }

// ---- calls ----

const callViews = {}; // call id -> {summary, activity, outcome, node parts}

function renderCall(id) {
  const main = document.getElementById("main");
  onFormChange = null;
  const c = state.calls.find(c => c.id === id);
  if (!c) { main.replaceChildren(el("p", {}, "No such call.")); return; }
  const title = el("h2", {}, c.tool);
  const status = el("p", {class: "status"});
  const lastStatus = el("p", {class: "muted last-status", hidden: true});
  const badge = el("span", {class: "badge running"}, "running");
  const elapsed = el("span", {class: "muted elapsed"});
  // Log and Outcome show only once they have something in them.
  const logHead = el("h3", {hidden: true}, "Log");
  const log = el("ol", {class: "log", hidden: true});
  const cancel = el("button", {id: "cancel", onclick: () => api("POST", `/api/calls/${id}/cancel`).catch(e => alert(e.message))}, "Cancel");
  const outcome = el("div", {class: "outcome"});
  const controls = el("p", {}, badge, " ", elapsed, " ", cancel, " ",
    el("button", {onclick: () => rerun(c)}, "Re-run"), " ", el("button", {onclick: () => edit(c)}, "Edit input"),
    c.agent ? el("span", {class: "muted"}, " as agent " + c.agent) : null);
  const input = [el("h3", {}, "Input"), jsonTree(c.input, true)];
  let ended = null;
  const started = Date.parse(c.started);
  const tick = setInterval(() => { elapsed.textContent = ((Date.now() - started) / 1000).toFixed(1) + " s"; }, 100);
  const [bar, body] = pageTabs(() => [controls, status, lastStatus, logHead, log, outcome, ...input], () => clientReceives(c.tool, ended));
  main.replaceChildren(title, el("div", {}, "call #" + c.id + " of ", el("a", {href: hrefOf("tool", c.tool), class: "tool-link"}, c.tool)), bar, body);
  if (streams[id]) streams[id].close();
  const es = streams[id] = sse(`/api/calls/${id}/events`);
  es.addEventListener("activity", ev => {
    const a = JSON.parse(ev.data);
    if (a.title) title.textContent = a.title;
    status.textContent = a.status;
    if (a.kind === "log") { log.append(el("li", {value: a.seq}, a.text)); log.hidden = logHead.hidden = false; }
    elapsed.textContent = (a.elapsedMs / 1000).toFixed(1) + " s";
  });
  es.addEventListener("approval", ev => {
    const a = JSON.parse(ev.data);
    const answer = approve => api("POST", `/api/calls/${id}/approval`, {approve})
      .catch(e => alert(e.message));
    const ask = el("div", {class: "card approval"}, el("h3", {}, "Approval"),
      el("p", {class: "approval-question"}, a.question),
      el("button", {class: "primary", id: "approve", onclick: () => answer(true)}, "Approve"), " ",
      el("button", {id: "deny", onclick: () => answer(false)}, "Deny"));
    outcome.replaceChildren(ask);
  });
  es.addEventListener("question", ev => outcome.replaceChildren(questionForm(id, JSON.parse(ev.data))));
  es.addEventListener("answered", () => outcome.replaceChildren());
  es.addEventListener("client", () => outcome.replaceChildren(clientAnswerForm(c)));
  es.addEventListener("clientAnswered", () => outcome.replaceChildren(el("p", {class: "muted client-answered"}, "Answered as the client.")));
  es.addEventListener("outcome", ev => {
    es.close(); delete streams[id]; clearInterval(tick);
    const o = ended = JSON.parse(ev.data);
    badge.className = "badge " + o.status; badge.textContent = o.status;
    elapsed.textContent = (o.elapsedMs / 1000).toFixed(3) + " s";
    cancel.disabled = true;
    if (o.activity.title) title.textContent = o.activity.title;
    if (o.status === "cancelled") {
      // Not the running view: the call ended, and its last status is
      // what it had said before.
      status.textContent = `Cancelled after ${(o.elapsedMs / 1000).toFixed(1)} s.`;
      status.classList.add("cancelled-status");
      lastStatus.textContent = o.activity.status ? "Its last status: " + o.activity.status : "";
      lastStatus.hidden = !o.activity.status;
    } else {
      status.textContent = o.activity.status;
    }
    log.replaceChildren(...o.activity.log.map(e => el("li", {value: e.seq}, e.message)));
    log.hidden = logHead.hidden = o.activity.log.length === 0;
    renderOutcome(outcome, c, o);
    if (o.traced) timeline(outcome, id);
    if (pageTab === "client") body.redraw();
  });
  es.onerror = () => { if (es.readyState === EventSource.CLOSED) clearInterval(tick); };
}

// clientAnswerForm lets the person answer a call of a tool only a client
// runs, as that client would: the text the model reads, a rendered tool's
// typed result from a form built from its result schema, or an error. A
// call takes one answer.
function clientAnswerForm(c) {
  const t = findTool(c.tool);
  const schema = t && t.tool.resultSchema;
  const result = schema ? field(schema, schema, null, true) : null;
  if (result) result.get("", {}); // names each field by its JSON path
  const text = el("textarea", {rows: 3, class: "answer-text", placeholder: "what the model reads"});
  const why = el("div", {class: "problem"});
  const send = async body => {
    why.textContent = "";
    try { await api("POST", `/api/calls/${c.id}/answer`, body); } catch (e) { why.textContent = e.message; }
  };
  return el("div", {class: "card client-answer"}, el("h3", {}, "Answer as the client"),
    el("p", {class: "muted"}, "This tool runs only in the client application that calls it; here the page is that client. Give its one answer."),
    el("label", {class: "block"}, "Text for the model"), text,
    result ? [el("label", {class: "block"}, "Result"), el("div", {class: "form answer-result"}, result.node)] : null,
    el("p", {}, el("button", {class: "primary", id: "answer", onclick: () => send({text: text.value, result: result ? result.get("", {}) : undefined})}, "Answer"), " ",
      el("button", {id: "answer-error", onclick: () => send({error: text.value || "the client failed"})}, "Fail the call with this text")),
    why);
}

// questionForm is the form of a question a tool's handler asks mid-call:
// a form's fields (defaults filled in), a URL to visit, or a reply for the
// client's model. The answer goes back as the MCP result would.
function questionForm(id, q) {
  const send = answer => api("POST", `/api/calls/${id}/question`, {key: q.key, answer}).catch(e => alert(e.message));
  const kids = [el("h3", {}, "Question")];
  if (q.refusal) kids.push(el("p", {class: "error"}, "Your last answer was refused: " + q.refusal));
  if (q.kind === "sample") {
    const reply = el("textarea", {class: "question-reply", rows: 4});
    kids.push(el("p", {}, "The tool asks the client's model; answer as the model would."),
      el("pre", {}, JSON.stringify(q.params, null, 2)), reply,
      el("button", {class: "primary", onclick: () => send({role: "assistant", model: "modhost dev",
        content: {type: "text", text: reply.value}})}, "Reply"));
    return el("div", {class: "card question"}, ...kids);
  }
  kids.push(el("p", {class: "question-message"}, q.message || ""));
  if (q.kind === "url") kids.push(el("p", {}, el("a", {href: q.url, target: "_blank", rel: "noopener"}, q.url)));
  const props = (q.schema && q.schema.properties) || {};
  const inputs = {};
  for (const [name, s] of Object.entries(props)) {
    const label = s.title || name;
    let input;
    const choices = s.enum ? s.enum.map((v, i) => [v, (s.enumNames || [])[i] || v])
      : s.oneOf ? s.oneOf.map(o => [o.const, o.title || o.const]) : null;
    const items = s.items && (s.items.enum ? s.items.enum.map(v => [v, v]) : s.items.anyOf ? s.items.anyOf.map(o => [o.const, o.title || o.const]) : null);
    if (choices) input = el("select", {}, ...choices.map(([v, t]) => el("option", {value: v, selected: v === s.default}, t)));
    else if (items) input = el("select", {multiple: true}, ...items.map(([v, t]) => el("option", {value: v, selected: (s.default || []).includes(v)}, t)));
    else if (s.type === "boolean") input = el("input", {type: "checkbox", checked: s.default === true});
    else input = el("input", {type: s.type === "number" || s.type === "integer" ? "number" : "text", value: s.default ?? ""});
    inputs[name] = [input, s];
    kids.push(el("label", {class: "question-field"}, label, " ", input));
  }
  const values = () => {
    const out = {};
    for (const [name, [input, s]] of Object.entries(inputs)) {
      if (s.type === "boolean") out[name] = input.checked;
      else if (s.type === "array") out[name] = [...input.selectedOptions].map(o => o.value);
      else if (input.value === "") continue;
      else out[name] = s.type === "number" || s.type === "integer" ? Number(input.value) : input.value;
    }
    return out;
  };
  kids.push(el("button", {class: "primary", id: "question-accept", onclick: () => send({action: "accept", content: values()})},
    q.kind === "url" ? "Done" : "Submit"), " ",
    el("button", {id: "question-decline", onclick: () => send({action: "decline"})}, "Decline"), " ",
    el("button", {id: "question-cancel", onclick: () => send({action: "cancel"})}, "Dismiss"));
  return el("div", {class: "card question"}, ...kids);
}

function renderOutcome(box, c, o) {
  const blocked = o.error && o.error.startsWith("blocked by a hook");
  const kids = [];
  if (o.status === "refused") kids.push(el("p", {class: "error refused-why"}, "Refused: " + o.error));
  if (blocked) kids.push(el("p", {class: "error"}, "A hook blocked this call: " + o.error));
  kids.push(el("h3", {}, "What the model reads"), o.text ? el("pre", {class: "model-text"}, o.text)
    : el("p", {class: "muted"}, o.outputs.length ? "no text: the model reads the outputs below" : "no text"));
  if (o.approvalReason) kids.push(el("p", {class: "approval-asked"}, o.status === "denied" ? "Denied" : "Approved", " when asked: ", el("i", {}, o.approvalReason)));
  if (o.error && !blocked && o.status !== "refused" && o.status !== "denied") kids.push(el("h3", {}, "Error"), el("pre", {class: "error"}, o.error));
  if (o.result !== undefined && o.result !== null) kids.push(el("h3", {}, "Structured result"), jsonTree(o.result, true));
  if (o.outputs.length) kids.push(el("h3", {}, "Outputs"), ...o.outputs.map(renderOutput));
  if (o.clientActions) kids.push(el("h3", {}, "Client actions"),
    el("p", {class: "muted"}, "What the tool asks the client application to do; this page shows them and takes none."),
    el("ol", {class: "client-actions"}, o.clientActions.map(a => el("li", {}, el("code", {}, a.kind), " ", jsonTree(a.params, true)))));
  const t = findTool(c.tool);
  if (t && t.tool.hasView && o.status !== "refused") {
    const frame = el("div");
    const phases = ["preparing", "running", "completed", "failed"].map(p => el("button", {type: "button", onclick: () => show(p)}, p));
    const show = async phase => {
      phases.forEach(b => b.classList.toggle("on", b.textContent === phase));
      try {
        const r = await api("POST", `/api/calls/${c.id}/view`, {phase});
        frame.replaceChildren(viewFrame(r.html, phase));
      } catch (e) { frame.replaceChildren(el("p", {class: "error"}, e.message)); }
    };
    kids.push(el("h3", {}, "View"), el("div", {class: "tabs"}, phases), frame);
    // A call that ended without completing shows its failed view, a
    // cancelled one included: never the running view of a call that is over.
    show(o.status === "completed" ? "completed" : "failed");
  }
  box.replaceChildren(...kids);
}

// timeline appends a call's spans to box, one bar each on a shared time
// axis: the host's call and its steps, the mod's handler, the author's own
// spans, hooks, approval, questions and the mod's build and start.
async function timeline(box, id) {
  let spans;
  try { spans = await api("GET", `/api/calls/${id}/spans`); } catch (e) { return; }
  if (!spans.length) return;
  const total = Math.max(...spans.map(s => s.startMs + s.durationMs)) || 1;
  const rows = spans.map(s => {
    const bar = el("span", {class: "span-bar"});
    bar.style.left = (s.startMs / total * 100) + "%";
    bar.style.width = Math.max(s.durationMs / total * 100, 0.3) + "%";
    const name = el("span", {class: "span-name", title: s.error || s.name}, s.name);
    name.style.paddingLeft = s.depth + "em";
    return el("div", {class: "span-row lane-" + s.lane + (s.error ? " span-error" : ""), "data-lane": s.lane},
      name, el("span", {class: "span-lane"}, s.lane), el("span", {class: "span-track"}, bar),
      el("span", {class: "span-ms"}, s.durationMs.toFixed(2) + " ms"));
  });
  box.append(el("h3", {}, "Timeline"), el("div", {class: "timeline"}, rows));
}

// viewCSP is the frame's own policy: inline script and style, data: images,
// and no network at all.
const viewCSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; font-src data:";

function viewFrame(html, phase) {
  const doc = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${viewCSP}">` + html;
  return el("iframe", {class: "view", sandbox: "allow-scripts", srcdoc: doc, title: "view, " + phase, "data-phase": phase});
}

function renderOutput(o) {
  const head = el("div", {class: "muted"}, o.mimeType, o.uri ? " — " + o.uri : "");
  const text = o.mimeType.startsWith("text/") || o.mimeType === "application/json";
  let body;
  if (o.mimeType.startsWith("image/") && !o.mimeType.includes("svg")) body = el("img", {src: `data:${o.mimeType};base64,${o.content}`, alt: o.uri || "image output"});
  else if (o.mimeType.startsWith("audio/")) body = el("audio", {controls: true, src: `data:${o.mimeType};base64,${o.content}`});
  else if (text) body = el("pre", {}, o.content);
  else body = el("p", {class: "muted"}, `${Math.floor(o.content.length * 3 / 4)} bytes, base64`);
  return el("div", {class: "card output"}, head, body);
}

function jsonTree(v, open) {
  if (v === null || typeof v !== "object") return el("code", {}, JSON.stringify(v));
  const entries = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  const label = Array.isArray(v) ? `[${entries.length}]` : `{${entries.length}}`;
  return el("details", {class: "json", open}, el("summary", {}, label),
    entries.map(([k, x]) => el("div", {}, el("span", {class: "muted"}, JSON.stringify(k) + ": "), jsonTree(x, false))));
}

async function rerun(c) {
  const n = await api("POST", "/api/calls", {tool: c.tool, input: c.input, agent: c.agent || ""});
  state.calls.push(n);
  select("call", n.id);
}

function edit(c) {
  const t = findTool(c.tool);
  if (!t) return;
  const kept = keptForm(t.tool);
  kept.raw.value = JSON.stringify(c.input, null, 2);
  kept.mode = "raw";
  select("tool", c.tool);
}

// ---- commands ----

function renderCommand(id, slash) {
  let cmd = null, mod = null;
  for (const m of state.mods) for (const c of (slash ? m.slashCommands : m.commands) || []) if (c.id === id) { cmd = c; mod = m; }
  if (!cmd) return [el("p", {class: "error"}, `${id} is no longer loaded`)];
  const arg = slash ? el("input", {type: "text", id: "slash-text", placeholder: "text after /" + id}) : el("textarea", {rows: 4, placeholder: "arguments as JSON (optional)"});
  const out = el("div", {class: "command-output"});
  const run = async () => {
    out.replaceChildren(el("p", {class: "muted"}, "running…"));
    try {
      const body = slash ? {id, text: arg.value} : {id, args: arg.value.trim() ? rawJSON(arg.value) : undefined};
      const r = await api("POST", slash ? "/api/slash" : "/api/command", body);
      out.replaceChildren(r.ok ? el("pre", {class: "output"}, r.output) : el("pre", {class: "error"}, r.error));
    } catch (e) { out.replaceChildren(el("pre", {class: "error"}, e.message)); }
  };
  const head = [el("h2", {}, slash ? icon(cmd.icons || mod.icons, 24) : null, slash ? "/" + id : cmd.title || id), el("p", {}, slash ? cmd.description : el("code", {}, id), " in mod ", el("b", {}, mod.id)), scopeNote(cmd.scopes)];
  if (!slash) return [...head, arg, el("p", {}, el("button", {class: "primary", id: "run", onclick: run}, "Run")), out];
  const args = cmd.arguments || [];
  const suggestions = cmd.completes ? completeSlashBox(arg, cmd) : null;
  return [...head, arg, suggestions, el("p", {}, el("button", {class: "primary", id: "run", onclick: run}, "Run")), out,
    el("h3", {}, "As a prompt"), el("p", {class: "muted"}, "What an MCP client's prompts/get gives, with these arguments."),
    ...promptForm(cmd, args)];
}

// completeSlashBox completes the argument being typed in a slash command's
// text: its nth word is the command's nth argument.
function completeSlashBox(input, cmd) {
  return completer(input, async value => {
    const words = value.split(/\s+/);
    const n = words.length - 1;
    const a = (cmd.arguments || [])[n];
    if (!a) return [];
    const context = {};
    words.slice(0, n).forEach((w, i) => { if (cmd.arguments[i]) context[cmd.arguments[i].name] = w; });
    const before = value.slice(0, value.length - words[n].length);
    const r = await api("POST", "/api/complete", {prompt: cmd.id, argument: a.name, value: words[n], context});
    return r.values.map(v => before + v);
  });
}

// promptForm is a field per argument of a slash command, completed as it
// is typed, and a button that gets the prompt's messages.
function promptForm(cmd, args) {
  const inputs = {};
  const values = () => {
    const v = {};
    for (const a of args) if (inputs[a.name].value !== "") v[a.name] = inputs[a.name].value;
    return v;
  };
  const fields = args.map(a => {
    const input = el("input", {type: "text", name: a.name, "data-argument": a.name});
    inputs[a.name] = input;
    const suggestions = cmd.completes ? completer(input, async value => {
      const context = values();
      delete context[a.name];
      return (await api("POST", "/api/complete", {prompt: cmd.id, argument: a.name, value, context})).values;
    }) : null;
    return el("div", {class: "field"}, el("label", {}, a.name, a.required ? " *" : " (optional)"),
      a.description ? el("div", {class: "muted"}, a.description) : null, input, suggestions);
  });
  const out = el("div", {class: "prompt-output"});
  const get = async () => {
    out.replaceChildren(el("p", {class: "muted"}, "getting…"));
    try {
      const r = await api("POST", "/api/prompt", {id: cmd.id, arguments: values()});
      out.replaceChildren(...(r.ok ? r.messages.map(messageNode) : [el("pre", {class: "error"}, r.error)]));
    } catch (e) { out.replaceChildren(el("pre", {class: "error"}, e.message)); }
  };
  return [...fields, el("p", {}, el("button", {id: "get-prompt", onclick: get}, "Get prompt")), out];
}

function messageNode(m) {
  const what = m.kind === "text" ? "" : m.kind === "resource" ? ` · resource ${m.uri} ${m.mimeType || ""}` : ` · image ${m.mimeType || ""}`;
  const body = m.kind === "image" || m.size ? el("p", {class: "muted"}, `${m.mimeType || "binary"}, ${m.size} bytes`) : el("pre", {class: "output"}, m.text);
  return el("div", {class: "message"}, el("div", {}, el("b", {}, m.role), what), body);
}

// completer shows the values complete(value) answers as the input's
// suggestions, asked at most once per pause in typing. It returns the
// list, to be put in the page beside the input.
function completer(input, complete) {
  const list = el("datalist", {id: "complete-" + Math.random().toString(36).slice(2)});
  input.setAttribute("list", list.id);
  input.setAttribute("autocomplete", "off");
  let timer = null, asked = 0;
  const ask = () => {
    const n = ++asked;
    complete(input.value).then(values => {
      if (n !== asked) return; // a later keystroke asked again
      list.replaceChildren(...values.map(v => el("option", {value: v})));
    }).catch(() => list.replaceChildren());
  };
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(ask, 150); });
  input.addEventListener("focus", ask);
  return list;
}

// ---- resources ----

function renderResource(uri) {
  let res = null, tmpl = null, mod = null;
  for (const m of state.mods) {
    for (const r of m.resources || []) if (r.uri === uri) { res = r; mod = m; }
    for (const t of m.resourceTemplates || []) if (t.uriTemplate === uri) { tmpl = t; mod = m; }
  }
  const r = res || tmpl;
  if (!r) return [el("p", {class: "error"}, `${uri} is no longer loaded`)];
  const vars = tmpl ? [...tmpl.uriTemplate.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map(m => m[1]) : [];
  const inputs = {};
  const fields = vars.map(name => {
    const input = el("input", {type: "text", name, "data-variable": name});
    inputs[name] = input;
    const suggestions = tmpl.completes ? completer(input, async value => {
      const context = {};
      for (const v of vars) if (v !== name && inputs[v].value !== "") context[v] = inputs[v].value;
      return (await api("POST", "/api/complete", {template: tmpl.uriTemplate, argument: name, value, context})).values;
    }) : null;
    return el("div", {class: "field"}, el("label", {}, "{" + name + "}"), input, suggestions);
  });
  // Each variable is one path segment: encoded, a / in it stays inside.
  const target = () => tmpl ? tmpl.uriTemplate.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, v) => encodeURIComponent(inputs[v].value)) : res.uri;
  const out = el("div", {class: "resource-output"});
  const read = async () => {
    out.replaceChildren(el("p", {class: "muted"}, "reading " + target() + "…"));
    try {
      const got = await api("POST", "/api/read", {uri: target()});
      const mime = got.mimeType || r.mimeType || "no MIME type";
      out.replaceChildren(!got.ok ? el("pre", {class: "error"}, got.error)
        : got.text === undefined ? el("p", {}, `${got.uri}: binary, ${mime}, ${got.size} bytes`)
        : el("div", {}, el("p", {class: "muted"}, `${got.uri} · ${mime}`), el("pre", {class: "output"}, got.text)));
    } catch (e) { out.replaceChildren(el("pre", {class: "error"}, e.message)); }
  };
  return [el("h2", {}, icon(r.icons || mod.icons, 24), r.title || r.name), el("p", {}, el("code", {}, uri), " in mod ", el("b", {}, mod.id), r.mimeType ? " · " + r.mimeType : ""),
    el("p", {}, r.description), scopeNote(r.scopes), ...fields, el("p", {}, el("button", {class: "primary", id: "read", onclick: read}, "Read")), out];
}

// ---- start ----

function connect() {
  const conn = document.getElementById("conn");
  const es = sse("/api/events");
  // The stream starts with the state's version: a change since the state
  // this page shows, or while the stream was down, means refetch.
  es.addEventListener("version", ev => {
    if (JSON.parse(ev.data).version !== state.version) refresh();
  });
  es.onopen = () => { conn.textContent = "live"; };
  es.onerror = () => { conn.textContent = "reconnecting…"; };
  es.addEventListener("state", () => refresh().then(() => { conn.textContent = "reloaded " + new Date().toLocaleTimeString(); }));
  es.addEventListener("call", async () => {
    const s = await api("GET", "/api/state");
    state.calls = s.calls;
    state.version = s.version;
    renderSide();
  });
}

document.getElementById("agent").addEventListener("change", () => { if (selected && selected.kind === "tool") renderMain(); });

try {
  selected = route();
  show(JSON.parse(document.getElementById("state").textContent));
  performance.mark("modhost:ready"); // the browser test reads it
  connect();
} catch (e) {
  document.getElementById("main").replaceChildren(el("pre", {class: "error"}, "cannot load the inspector: " + e.message));
}
