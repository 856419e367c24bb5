// browser drives the page `modhost dev` serves in headless Chromium, as a
// mod's author would: it browses the mods, opens the form of
// research_search_workspace and sees its defaults prefilled and no problem
// until it types, then the field problem for an empty query, fills a form of
// every shape (an optional boolean is one control of three states),
// sees the notes of tools that ask for approval, run in the client or emit
// client actions, is asked to approve a note, denies it and sees the call
// denied, runs a real search and sees its status updates and its
// completed view in the sandboxed frame and its timeline (the host's call,
// the mod's handler nested under it), answers a tool's questions mid-call
// in the page's forms (one refused and asked again), acts as an agent that
// may not call a tool, sees a hook block a call (and the hooks on the
// timeline), runs research.stats and /deps, completes a prompt's arguments
// and a resource template's variables, gets the prompt and reads the
// resource, moves a
// large tree into the workspace and cancels a long search of it and sees it
// cancelled, follows and goes back through the panels' URLs, answers a tool
// only a client runs as its client would, reads what an MCP client receives
// for a tool and a call, and edits a mod's source to see the page pick up the
// change without a refresh and a broken edit as a banner. It saves
// screenshots in SHOT_DIR, fails on any console error, and prints a JSON
// report on stdout, with timings: the page's loads (Navigation and Paint
// Timing, and the page's own mark when it shows the tools), and how long
// activity takes to reach the page; it exits non-zero when a check fails.
//
// usage: node browser.mjs TOOLS_DIR URL CHROMIUM SHOT_DIR MOD_SOURCE BIG_TREE BIG_DEST BIG_FILES
import { createRequire } from "node:module";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const [toolsDir, url, chromiumPath, shotDir, modSource, bigTree, bigDest, bigFiles] = process.argv.slice(2);
const req = createRequire(join(toolsDir, "package.json"));
const pw = await import(pathToFileURL(req.resolve("playwright-core")).href);
const { chromium } = Object.assign({}, pw.default, pw);

const TIMEOUT = 120_000;
const failures = [];
const report = { steps: [], timings: {} };
const consoleErrors = [];

function check(ok, what) {
  if (!ok) failures.push(what);
}

const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });

async function newPage(context) {
  const p = await context.newPage();
  p.setDefaultTimeout(TIMEOUT);
  p.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
  p.on("pageerror", (e) => consoleErrors.push(String(e)));
  return p;
}
const page = await newPage(await browser.newContext({ viewport: { width: 1280, height: 900 } }));

let shots = 0;
async function step(name, f) {
  const t0 = Date.now();
  try {
    await f();
    report.steps.push({ name, ms: Date.now() - t0 });
  } catch (e) {
    failures.push(`${name}: ${e.message.split("\n")[0]}`);
  }
  await page.screenshot({ path: join(shotDir, `${String(++shots).padStart(2, "0")}-${name}.png`) }).catch(() => {});
}

// save replaces the mod's source at once, as editors save.
function save(content) {
  const tmp = join(dirname(modSource), ".reloady.go.tmp");
  writeFileSync(tmp, content);
  renameSync(tmp, modSource);
}

// strayNull reports whether the main panel shows a part left out as the
// text "null".
const strayNull = () => page.evaluate(() =>
  [...document.getElementById("main").childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim() === "null"));

const nav = (kind, key, p = page) => p.locator(`nav a[data-kind="${kind}"][data-key="${key}"]`);
// open shows a panel as a person does, by its link, and waits until the
// page shows it: the link is marked selected in the same task that renders
// the panel, so nothing is typed into the panel it replaces.
async function open(kind, key) {
  await nav(kind, key).click();
  await page.locator(`nav a.sel[data-kind="${kind}"][data-key="${key}"]`).waitFor();
}
const badge = (status) => page.locator(`#main .badge.${status}`);

// loadTimes waits for the page's first contentful paint and returns, in
// milliseconds from the start of its navigation: the end of the response,
// the first contentful paint, the page's mark when it shows the tools
// ("ready", null on another page), and the end of DOMContentLoaded and of
// load.
function loadTimes(p) {
  return p.evaluate(() => new Promise((resolve) => {
    new PerformanceObserver((list, obs) => {
      obs.disconnect();
      const n = performance.getEntriesByType("navigation")[0];
      resolve({
        responseEnd: n.responseEnd,
        fcp: list.getEntriesByName("first-contentful-paint")[0].startTime,
        ready: performance.getEntriesByName("modhost:ready")[0]?.startTime ?? null,
        domContentLoaded: n.domContentLoadedEventEnd,
        load: n.loadEventEnd,
      });
    }).observe({ type: "paint", buffered: true });
  }));
}

// percentiles summarises samples of loadTimes (or numbers) by p50 and p90.
function percentiles(samples) {
  const pick = (xs, q) => xs[Math.max(0, Math.ceil(q * xs.length) - 1)];
  const one = (xs) => {
    xs = [...xs].sort((a, b) => a - b);
    return { p50: +pick(xs, 0.5).toFixed(1), p90: +pick(xs, 0.9).toFixed(1) };
  };
  if (typeof samples[0] === "number") return { n: samples.length, ...one(samples) };
  const out = { n: samples.length };
  for (const k of Object.keys(samples[0])) {
    const xs = samples.map((s) => s[k]).filter((x) => x !== null);
    if (xs.length) out[k] = one(xs);
  }
  return out;
}

await step("load", async () => {
  await page.goto(url);
  await nav("tool", "research_search_workspace").waitFor();
  report.timings.browserFirstLoad = await loadTimes(page);
  check(!await strayNull(), "the home panel shows a stray null");
  // A marker that a refresh would lose.
  await page.evaluate(() => { window.notRefreshed = true; });
});

// Loads of the page: cold, each in a new browser context with an empty
// cache, and warm, reloads in one context. The baseline is a page of one
// word from a data: URL, loaded cold: what any page costs this browser on
// this machine.
const LOADS = 20;
await step("load-times", async () => {
  const cold = [], baseline = [];
  for (let i = 0; i < LOADS; i++) {
    let ctx = await browser.newContext();
    let p = await newPage(ctx);
    await p.goto(url);
    await nav("tool", "research_search_workspace", p).waitFor();
    cold.push(await loadTimes(p));
    await ctx.close();
    ctx = await browser.newContext();
    p = await newPage(ctx);
    await p.goto("data:text/html,<!doctype html><title>baseline</title><p>baseline");
    baseline.push(await loadTimes(p));
    await ctx.close();
  }
  const ctx = await browser.newContext();
  const p = await newPage(ctx);
  await p.goto(url);
  const warm = [];
  for (let i = 0; i < LOADS; i++) {
    await p.reload();
    await nav("tool", "research_search_workspace", p).waitFor();
    warm.push(await loadTimes(p));
  }
  await ctx.close();
  report.timings.coldLoadMs = percentiles(cold);
  report.timings.coldBaselineMs = percentiles(baseline);
  report.timings.warmLoadMs = percentiles(warm);
});

await step("defaults-and-problems", async () => {
  const checks = [];
  const onRequest = (r) => { if (r.url().includes("/api/check")) checks.push(r.url()); };
  page.on("request", onRequest);
  try {
    await open("tool", "research_search_workspace");
    const f = (path) => page.locator(`#main .field[data-path="${path}"]`);
    await f("/query").waitFor();
    // No problem shows, and none is asked for, before the person types.
    const shown = await page.locator("#main .problem").evaluateAll((ps) => ps.filter((p) => p.textContent !== "").map((p) => p.textContent));
    check(shown.length === 0, `problems shown before typing: ${JSON.stringify(shown)}`);
    check(checks.length === 0, `${checks.length} checks asked for before typing`);
    // The limit's default shows and fills its field.
    const limit = await f("/limit").locator(":scope > input").inputValue();
    check(limit === "50", `the limit field holds ${JSON.stringify(limit)}, want its default 50`);
    await f("/limit").locator(":scope > .desc", { hasText: "default 50" }).waitFor();
    // An optional boolean is one control: unset, true or false.
    const options = await f("/regex").locator(":scope > select.tristate option").allTextContents();
    check(options.length === 3 && options[0].startsWith("unset") && options[1] === "true" && options[2] === "false",
      `the optional boolean regex offers ${JSON.stringify(options)}, want unset, true, false`);
    check(await f("/regex").locator("input[type=checkbox]").count() === 0, "the optional boolean regex has a checkbox besides its select");
    // Once the person types, the field's problem shows.
    await f("/query").locator(":scope > input").fill("x");
    await f("/query").locator(":scope > input").fill("");
    await f("/query").locator(":scope > .problem", { hasText: "at least 1" }).waitFor();
    check(!await strayNull(), "the tool panel shows a stray null");
  } finally {
    page.off("request", onRequest);
  }
});

await step("tool-notes", async () => {
  // A tool's panel says when it asks for approval, where it runs, and
  // the client actions it may emit, with their params after the result.
  try {
    await open("tool", "research_save_note");
    await page.locator("#main .approval-note", { hasText: "when the mod's rule picks the call" }).waitFor();
    await page.locator("#main .scope-note", { hasText: "Needs the OAuth scopes notes.write" }).waitFor();
    await open("resource", "research://notes/index");
    await page.locator("#main .scope-note", { hasText: "Needs the OAuth scopes notes.read" }).waitFor();
    await open("command", "crashy.wait");
    await page.locator("#main .scope-note", { hasText: "Needs the OAuth scopes crashy.admin" }).waitFor();
    await open("tool", "dependencies_modules");
    await page.locator("#main .runs-note", { hasText: "else in its mod, as here" }).waitFor();
    await open("tool", "research_open_file");
    await page.locator("#main h3", { hasText: "Client action open_file" }).waitFor();
    await page.locator("#main table.schema").last().locator("code", { hasText: "/line" }).waitFor();
    check(await page.locator("#main .approval-note, #main .runs-note, #main .scope-note").count() === 0, "research_open_file shows an approval, runs or scope note");
  } finally {
    await open("tool", "research_search_workspace");
  }
});

await step("approval-denied", async () => {
  // The page asks in the words every approver uses, and a denied call
  // says what the person was asked.
  await open("tool", "research_save_note");
  const f = (path) => page.locator(`#main .field[data-path="${path}"] > input, #main .field[data-path="${path}"] > textarea`);
  await f("/path").fill("notes/a.md");
  await f("/text").fill("hi");
  await page.locator("#run").click();
  await page.locator("#main .approval-question", { hasText: "Save a note (research_save_note), which may delete or overwrite, needs your approval: Create notes/a.md" }).waitFor();
  await page.locator("#deny").click();
  await badge("denied").waitFor();
  await page.locator("#main .approval-asked", { hasText: "Denied when asked: Create notes/a.md" }).waitFor();
  await open("tool", "research_search_workspace");
});

await step("search", async () => {
  await page.locator("#main .form input[type=text]").first().fill("needle");
  await page.locator("#main .field .problem", { hasText: "at least 1" }).waitFor({ state: "detached" });
  await page.evaluate(() => {
    window.statuses = [];
    new MutationObserver(() => {
      const s = document.querySelector("#main p.status");
      if (s && s.textContent && window.statuses.at(-1) !== s.textContent) window.statuses.push(s.textContent);
    }).observe(document.getElementById("main"), { subtree: true, childList: true, characterData: true });
  });
  await page.locator("#run").click();
  await badge("completed").waitFor();
  const statuses = await page.evaluate(() => window.statuses);
  report.steps.push({ name: "search statuses", statuses });
  check(statuses.some((s) => s.startsWith("Searching")), `no "Searching" status arrived: ${JSON.stringify(statuses)}`);
  const text = await page.locator("#main pre.model-text").textContent();
  check(text.includes("notes.txt"), `model text names no hit: ${text}`);
  const frameEl = page.locator('#main iframe.view[data-phase="completed"]');
  await frameEl.waitFor();
  check(await frameEl.getAttribute("sandbox") === "allow-scripts", "the view frame is not sandboxed to allow-scripts");
  const frame = await (await frameEl.elementHandle()).contentFrame();
  await frame.locator("text=notes.txt").first().waitFor();
  // The frame runs at an opaque origin: it cannot reach the page.
  const reach = await frame.evaluate(() => {
    try { return String(window.parent.document.querySelector("meta")); } catch (e) { return "blocked"; }
  });
  check(reach === "blocked", `the view frame reached the page: ${reach}`);
  // The call's timeline: the host's call and, from the mod's process, its
  // handler, nested under it.
  const row = (lane, name) => page.locator(`#main .timeline .span-row[data-lane="${lane}"]`, { has: page.locator(".span-name", { hasText: new RegExp(`^${name}$`) }) });
  await row("host", "call research_search_workspace").waitFor();
  await row("mod", "run_tool research_search_workspace").waitFor();
  const pad = (lane, name) => row(lane, name).locator(".span-name").evaluate((e) => parseFloat(e.style.paddingLeft));
  const [callPad, modPad] = [await pad("host", "call research_search_workspace"), await pad("mod", "run_tool research_search_workspace")];
  check(modPad > callPad, `the mod's span is not nested under the host's call: indents ${callPad} and ${modPad}`);
  const bar = await row("mod", "run_tool research_search_workspace").locator(".span-bar").boundingBox();
  check(bar && bar.width > 0, `the mod's span has no bar: ${JSON.stringify(bar)}`);
});

await step("form", async () => {
  await open("tool", "reloady_form");
  const f = (path) => page.locator(`#main .field[data-path="${path}"]`);
  const problem = (path) => f(path).locator(":scope > .problem");
  // Run before typing: every problem shows, and no call starts.
  const calls = await page.locator('nav a[data-kind="call"]').count();
  await page.locator("#run").click();
  await problem("/name").filter({ hasText: "match" }).waitFor();
  await problem("/nested/title").filter({ hasText: "at least 1" }).waitFor();
  check(await page.locator('nav a[data-kind="call"]').count() === calls, "Run with problems started a call");
  await f("/name").locator(":scope > input").fill("abc");
  await f("/color").locator(":scope > select").selectOption({ label: '"green"' });
  await f("/loud").locator(":scope > select.tristate").selectOption("true");
  const sure = await f("/sure").locator(":scope > select.tristate option").allTextContents();
  check(JSON.stringify(sure) === '["unset","true","false","null"]', `the optional *bool offers ${JSON.stringify(sure)}`);
  await f("/nested/title").locator(":scope > input").fill("x");
  await f("/items").getByRole("button", { name: "add item" }).click();
  await problem("/items/0/title").filter({ hasText: "at least 1" }).waitFor();
  await f("/items/0/title").locator(":scope > input").fill("t1");
  await f("/tags").getByRole("button", { name: "add entry" }).click();
  await f("/tags").locator('input[placeholder="key"]').fill("k");
  await f("/tags/k").locator(":scope > input").fill("3");
  await f("/maybe").locator(":scope > div > label > input[type=checkbox]").uncheck();
  await f("/maybe").locator("input[type=number]").fill("7");
  await page.waitForFunction(() => [...document.querySelectorAll("#main .problem")].every((p) => p.textContent === ""));
  await page.locator("#run").click();
  await badge("completed").waitFor();
  const got = await page.locator("#main pre.model-text").textContent();
  const want = '{"name":"abc","color":"green","loud":true,"nested":{"title":"x","count":0},"items":[{"title":"t1","count":0}],"tags":{"k":3},"maybe":7}';
  check(got === want, `form call sent ${got}, want ${want}`);
});

await step("raw-json", async () => {
  await open("tool", "reloady_form");
  await page.getByRole("button", { name: "Raw JSON" }).click();
  await page.locator("#main textarea.raw").fill('{"name": "ABC"}');
  await page.locator("#main .top-problems", { hasText: "/name" }).waitFor();
  await page.getByRole("button", { name: "Form" }).click();
});

await step("outputs", async () => {
  await open("tool", "test_multiple_content_types");
  await page.locator("#run").click();
  await badge("completed").waitFor();
  await page.locator('#main .output img[src^="data:image/png;base64,"]').waitFor();
  await page.locator("#main .output", { hasText: "test://embedded-in-multiple" }).waitFor();
  await open("tool", "test_audio_content");
  await page.locator("#run").click();
  await page.locator('#main .output audio[src^="data:audio/wav;base64,"]').waitFor();
});

await step("question-form", async () => {
  // A tool's handler asks the person mid-call: the page shows each form,
  // refuses an answer that breaks it in the host's words and asks again,
  // and the call completes with the answers.
  await open("tool", "test_input_required_result_multi_round");
  await page.locator("#run").click();
  const card = page.locator("#main .card.question");
  await card.locator(".question-message", { hasText: "Step 1: What is your name?" }).waitFor();
  await page.screenshot({ path: join(shotDir, "question-form.png") });
  await card.locator("#question-accept").click(); // no name: the form requires one
  await card.locator("p.error", { hasText: 'missing required property "name"' }).waitFor();
  await card.locator(".question-message", { hasText: "Step 1: What is your name?" }).waitFor();
  await card.locator("label.question-field", { hasText: "name" }).locator("input").fill("Ada");
  await card.locator("#question-accept").click();
  await card.locator(".question-message", { hasText: "Step 2: What is your favorite color?" }).waitFor();
  check(await card.locator("p.error").count() === 0, "the second question shows the first one's refusal");
  await card.locator("label.question-field", { hasText: "color" }).locator("input").fill("teal");
  await card.locator("#question-accept").click();
  await badge("completed").waitFor();
  const text = await page.locator("#main pre.model-text").textContent();
  check(text === "Ada likes teal", `the answered call says ${JSON.stringify(text)}, want "Ada likes teal"`);
  check(await page.locator("#main .card.question").count() === 0, "the question form stays after the call completed");
});

await step("latency", async () => {
  await open("tool", "crashy_flood");
  await page.locator('#main .field[data-path="/n"] > input').fill("200");
  await page.evaluate(() => {
    window.shown = {};
    new MutationObserver((ms) => {
      const now = Date.now();
      for (const m of ms) for (const n of m.addedNodes) {
        if (n.nodeName === "LI" && n.closest("ol.log") && !(n.value in window.shown)) window.shown[n.value] = now;
      }
    }).observe(document.getElementById("main"), { subtree: true, childList: true });
  });
  await page.locator("#run").click();
  await badge("completed").waitFor();
  const id = await page.locator('nav a.sel[data-kind="call"]').getAttribute("data-key");
  const lat = await page.evaluate((id) => new Promise((resolve) => {
    const token = document.querySelector('meta[name="modhost-token"]').content;
    const es = new EventSource(`/api/calls/${id}/events?token=${token}`);
    const out = [];
    es.addEventListener("activity", (ev) => {
      const a = JSON.parse(ev.data);
      if (a.kind === "log" && a.seq in window.shown) out.push(window.shown[a.seq] - a.atMs);
    });
    es.addEventListener("outcome", () => { es.close(); resolve(out); });
  }), id);
  lat.sort((a, b) => a - b);
  check(lat.length === 200, `latency: ${lat.length} log entries seen, want 200`);
  report.timings.hostToPageMs = { n: lat.length, p50: lat[Math.floor(lat.length / 2)], p90: lat[Math.floor(lat.length * 0.9)] };
});

// From the mod's clock when it sends a status update to the update's
// appearance in the page's DOM.
await step("mod-to-page", async () => {
  await open("tool", "reloady_clock");
  await page.locator('#main .field[data-path="/n"] > input').fill("100");
  await page.locator('#main .field[data-path="/gapMs"] > input').fill("20");
  await page.waitForFunction(() => [...document.querySelectorAll("#main .problem")].every((p) => p.textContent === ""));
  await page.evaluate(() => {
    window.ticks = {};
    new MutationObserver((ms) => {
      const now = performance.timeOrigin + performance.now();
      for (const m of ms) {
        if (!m.target.matches || !m.target.matches("p.status")) continue;
        for (const n of m.addedNodes) {
          const t = /^tick (\d+) at (\d+)$/.exec(n.textContent);
          if (t && !(t[1] in window.ticks)) window.ticks[t[1]] = now - Number(t[2]) / 1000;
        }
      }
    }).observe(document.getElementById("main"), { subtree: true, childList: true });
  });
  await page.locator("#run").click();
  await badge("completed").waitFor();
  const lat = await page.evaluate(() => Object.values(window.ticks));
  check(lat.length === 100, `mod-to-page: ${lat.length} status updates seen, want 100`);
  if (lat.length) report.timings.modToPageMs = percentiles(lat);
});

await step("history-rerun", async () => {
  await page.locator('nav a[data-kind="call"]', { hasText: "research_search_workspace" }).first().click();
  await badge("completed").waitFor();
  const searches = page.locator('nav a[data-kind="call"]', { hasText: "research_search_workspace" });
  check(await searches.count() === 1, "history lists no search");
  await page.getByRole("button", { name: "Re-run" }).click();
  await searches.nth(1).waitFor();
  await page.locator('nav a.sel[data-kind="call"]', { hasText: "research_search_workspace" }).locator(".badge.completed").waitFor();
  check(await searches.count() === 2, "the re-run search is not in the history once");
});

await step("agent-refused", async () => {
  await page.locator("#agent").selectOption("echoer");
  await open("tool", "research_word_count");
  await page.locator("#main .agent-note", { hasText: "leaves this tool out" }).waitFor();
  await page.locator("#main .form input[type=text]").first().fill("one two");
  await page.locator("#run").click();
  await page.locator("#main .refused-why", { hasText: "agent echoer may not call tool research_word_count" }).waitFor();
  await page.locator("#agent").selectOption("");
});

await step("hook-blocks", async () => {
  await open("tool", "crashy_blocked");
  await page.locator("#run").click();
  await page.locator("#main p.error", { hasText: "A hook blocked this call" }).waitFor();
  await page.locator('#main .timeline .span-row[data-lane="hooks"]').first().waitFor();
});

await step("command", async () => {
  await open("command", "research.stats");
  await page.locator("#run").click();
  const out = await page.locator("#main .command-output pre.output").textContent();
  check(/file/.test(out), `research.stats said: ${out}`);
});

await step("slash", async () => {
  await open("slash", "deps");
  await page.locator("#slash-text").fill("example.com/ws/b");
  await page.locator("#run").click();
  const out = await page.locator("#main .command-output pre").textContent();
  check(out.includes("example.com/ws/a"), `/deps said: ${out}`);
});

await step("completion", async () => {
  // A prompt's arguments, in its form and in the slash box, and a resource
  // template's variables complete as they are typed; the prompt's messages
  // and the resource's text show.
  await open("slash", "summarize");
  // The prompt shows its mod's icon, the note template its own.
  const headIcon = () => page.locator("#main h2 img.icon").first().getAttribute("src");
  const modIcon = await headIcon();
  check(modIcon?.startsWith("data:image/svg+xml;base64,"), `the prompt's icon is ${modIcon}`);
  const option = (value) => page.locator(`#main datalist option[value="${value}"]`).first().waitFor({ state: "attached" });
  await page.locator('#main input[data-argument="path"]').fill("not");
  await option("notes.txt");
  await page.locator('#main input[data-argument="path"]').fill("notes.txt");
  await page.locator("#get-prompt").click();
  await page.locator("#main .prompt-output .message", { hasText: "a needle in the notes" }).waitFor();
  await page.locator("#slash-text").fill("not");
  await option("notes.txt");
  await open("resource", "research://notes/{path}");
  const noteIcon = await headIcon();
  check(noteIcon?.startsWith("data:image/svg+xml;base64,") && noteIcon !== modIcon, `the note template's icon is ${noteIcon}, want its own`);
  await page.locator('#main input[data-variable="path"]').fill("not");
  await option("notes.txt");
  await page.locator('#main input[data-variable="path"]').fill("notes.txt");
  await page.locator("#read").click();
  await page.locator("#main .resource-output pre.output", { hasText: "another needle" }).waitFor();
  await open("resource", "research://notes/index");
  await page.locator("#read").click();
  await page.locator("#main .resource-output pre.output", { hasText: "[notes.txt](research://notes/notes.txt)" }).waitFor();
  check(!(await strayNull()), "the resource panel shows a stray null");
});

await step("urls", async () => {
  // Each panel has a URL: links and the back button work, and a call's URL
  // opens the call in another page.
  await open("tool", "research_word_count");
  await page.waitForURL(/#tool\/research_word_count$/);
  await open("mod", "research");
  await page.waitForURL(/#mod\/research$/);
  await page.locator("#main h3", { hasText: "Slash commands" }).waitFor();
  // The mod's panel links to its tools.
  await page.locator('#main a[href="#tool/research_save_note"]').click();
  await page.locator('nav a.sel[data-kind="tool"][data-key="research_save_note"]').waitFor();
  await page.goBack();
  await page.locator('nav a.sel[data-kind="mod"][data-key="research"]').waitFor();
  await page.goBack();
  await page.locator('nav a.sel[data-kind="tool"][data-key="research_word_count"]').waitFor();
  await page.locator('#main code', { hasText: "research_word_count" }).first().waitFor();
  await page.goForward();
  await page.locator('nav a.sel[data-kind="mod"][data-key="research"]').waitFor();
  const href = await page.locator('nav a[data-kind="call"]', { hasText: "research_search_workspace" }).first().getAttribute("href");
  check(/^#call\/\d+$/.test(href || ""), `a call's link is ${href}, want #call/ID`);
  const other = await newPage(page.context());
  await other.goto(url + href);
  await other.locator("#main .badge.completed").waitFor();
  await other.locator("#main a.tool-link", { hasText: "research_search_workspace" }).click();
  await other.waitForURL(/#tool\/research_search_workspace$/);
  await other.close();
});

await step("client-answer", async () => {
  // A tool only a client runs: the page answers as its client would, with
  // the text and a result from a form built from the result schema.
  await open("tool", "clientside_measure");
  await page.locator('#main .field[data-path="/element"] > input').fill("menu");
  await page.locator("#run").click();
  await page.locator("#main .client-answer").waitFor();
  await page.locator("#main .answer-text").fill("menu is 120 px wide");
  await page.locator('#main .answer-result .field[data-path="/width"] > input').fill("120");
  await page.screenshot({ path: join(shotDir, "client-answer.png") });
  await page.locator("#answer").click();
  await badge("completed").waitFor();
  const text = await page.locator("#main pre.model-text").textContent();
  check(text === "menu is 120 px wide", `the answered call says ${JSON.stringify(text)}`);
  check(await page.locator("#main .client-answer").count() === 0, "the answer form stays after the call's one answer");
  await page.locator("#main details.json", { hasText: "width" }).first().waitFor();
  // modhost mcp does not offer the tool: no tools/call result, and why.
  await page.getByRole("button", { name: "What a client receives" }).click();
  await page.locator("#main .mcp-none").waitFor();
  await page.locator("#main .mcp-why", { hasText: "does not offer" }).waitFor();
  await page.getByRole("button", { name: "Workbench" }).click();
});

await step("client-receives", async () => {
  // What modhost mcp gives a client: the tools/list entry and the raw
  // tools/call result, structuredContent and _meta included.
  await open("tool", "crashy_act");
  await page.getByRole("button", { name: "Raw JSON" }).click();
  await page.locator("#main textarea.raw").fill(JSON.stringify({ returned: [{ kind: "mark", params: { line: 4 } }] }));
  await page.locator("#run").click();
  await badge("completed").waitFor();
  await page.getByRole("button", { name: "What a client receives" }).click();
  const result = JSON.parse(await page.locator("#main pre.mcp-result").textContent());
  check(JSON.stringify(result.structuredContent) === '{"clientActions":[{"kind":"mark","params":{"line":4}}]}',
    `the tools/call result's structuredContent is ${JSON.stringify(result.structuredContent)}`);
  check(result._meta && Object.values(result._meta).some((v) => JSON.stringify(v) === '[{"kind":"mark","params":{"line":4}}]'),
    `the tools/call result's _meta is ${JSON.stringify(result._meta)}, want the client actions`);
  const entry = JSON.parse(await page.locator("#main .mcp-entry pre").textContent());
  check(entry.name === "crashy_act" && entry.outputSchema && entry.inputSchema, `the tools/list entry is ${JSON.stringify(entry)}`);
  await page.screenshot({ path: join(shotDir, "client-receives.png") });
  await page.getByRole("button", { name: "Workbench" }).click();
  await open("tool", "research_search_workspace");
  await page.getByRole("button", { name: "What a client receives" }).click();
  const view = JSON.parse(await page.locator("#main .mcp-entry pre").textContent());
  check(view._meta?.ui?.resourceUri === "ui://research/research_search_workspace", `the search's entry has _meta ${JSON.stringify(view._meta)}`);
  await open("tool", "clientside_measure");
  await page.getByRole("button", { name: "What a client receives" }).click();
  await page.locator("#main .mcp-why", { hasText: "does not offer" }).waitFor();
  await page.getByRole("button", { name: "Workbench" }).click();
});

await step("cancel-large-search", async () => {
  renameSync(bigTree, bigDest);
  await open("tool", "research_search_workspace");
  await page.getByRole("button", { name: "Raw JSON" }).click();
  await page.locator("#main textarea.raw").fill(JSON.stringify({ query: "\\w+\\s*:=\\s*needle", regex: true, limit: 200 }));
  await page.locator("#run").click();
  await page.locator("#main p.status", { hasText: /^Searching [\d,]+ of [\d,]+ files/ }).waitFor();
  await page.locator("#cancel").click();
  await badge("cancelled").waitFor();
  // The call says it was cancelled, shows its failed view, not the running
  // one, and, apart, the last status the search sent before it stopped.
  await page.locator("#main p.status", { hasText: /^Cancelled after/ }).waitFor();
  await page.locator('#main iframe.view[data-phase="failed"]').waitFor();
  check(await page.locator('#main iframe.view[data-phase="running"]').count() === 0, "the cancelled call shows its running view");
  const status = (await page.locator("#main p.last-status").textContent()).replace(/^Its last status: /, "");
  const [done, total] = (/^Searching ([\d,]+) of ([\d,]+) files/.exec(status) || [, "NaN", "NaN"]).slice(1).map((n) => Number(n.replace(/,/g, "")));
  check(total >= Number(bigFiles), `the search did not list the large tree: ${status}`);
  check(done < total, `the cancelled search went on to the end: ${status}`);
  report.steps.push({ name: "cancelled search's last status", status });
});

await step("live-reload", async () => {
  await open("tool", "reloady_echo");
  const before = readFileSync(modSource, "utf8");
  const t0 = Date.now();
  save(before.replace("Echoes its text", "Echoes its text, edited"));
  await page.locator("#main", { hasText: "Echoes its text, edited" }).waitFor();
  report.timings.editToPageMs = Date.now() - t0;
  save(before.replace('"v1"', "42"));
  // A banner over the panel in view says where and what, in the compiler's words.
  const banner = page.locator("#banners .build-banner");
  await banner.waitFor();
  await page.screenshot({ path: join(shotDir, "build-error.png") });
  const said = await banner.locator(".build-problems").textContent();
  check(/reloady\.go:\d+:\d+: (invalid operation|cannot use|mismatched)/.test(said), `the build banner says ${JSON.stringify(said)}, want file:line:col and the compiler's text`);
  await page.locator('nav a[data-kind="build"]').click();
  const problems = await page.locator("#main .build-problems").textContent();
  check(/reloady\.go:\d+:\d+/.test(problems), `build errors name no file:line:col: ${problems}`);
  save(before);
  await page.locator('nav a[data-kind="build"]').waitFor({ state: "detached" });
  await banner.waitFor({ state: "detached" });
  check(await page.evaluate(() => window.notRefreshed === true), "the page was refreshed");
});

await browser.close();
for (const e of consoleErrors) failures.push(`console error: ${e}`);
report.failures = failures;
console.log(JSON.stringify(report, null, 2));
process.exit(failures.length ? 1 : 0);
