// Package devserver is the web inspector behind modhost dev: a single page,
// served on loopback, where a mod's author browses the loaded mods, calls
// their tools from forms built from the input schemas (prefilled with their
// defaults; a field's problems show once the person changed it or pressed
// Run), watches activity live, approves or denies the calls that ask,
// answers the calls of a tool only a client runs as that client would, sees
// outcomes (with their client actions) and views, runs commands, slash
// commands and agents, gets prompts and reads resources with their
// arguments completed as they are typed, and sees each edit of a mod's sources picked up
// without a refresh, or a banner saying why it did not build. The panel
// of a tool, command, slash command or resource names the OAuth scopes it
// needs. A tool's panel says when it asks for approval and where it runs,
// and lists the client actions it may emit with their params; its "What a client
// receives" tab shows its tools/list entry and each call's tools/call
// result as modhost mcp gives them (internal/mcpbridge builds both). Each
// panel has a URL, its kind and key in the fragment (#tool/NAME, #call/ID,
// #mod/ID, …), so links and the browser's back button work.
//
// # Endpoints
//
// The page is "/", one response that carries its script, its style and
// the state, so that a first visit shows the mods after one round trip.
// The API is JSON under "/api/":
//
//	GET  /api/state              mods, tools, failures, agents, build errors, and
//	                             the field trees of the schemas (package schemaview)
//	POST /api/check              {tool, input} → {problems: [{path, message}]}
//	POST /api/calls              {tool, input, agent} → the call, started
//	GET  /api/calls              the session's calls, newest last
//	GET  /api/calls/{id}         one call, with its outcome once ended
//	GET  /api/calls/{id}/events  the call's activity, "approval" questions
//	                             and their "answered", the handler's
//	                             "question"s, "client" and
//	                             "clientAnswered" for a client-only tool,
//	                             and its outcome, with the tools/call
//	                             result an MCP client would get (SSE)
//	GET  /api/calls/{id}/spans   the call's timeline: its spans, host's
//	                             and mod's, in the order they started
//	                             (with Options.Spans; modhost dev sets it)
//	POST /api/calls/{id}/cancel  cancels the call in the mod
//	POST /api/calls/{id}/approval
//	                             {approve} answers the call's approval
//	                             question; 409 when none waits
//	POST /api/calls/{id}/question
//	                             {key, answer} answers the question the
//	                             tool's handler asks, as an MCP client's
//	                             result would; 409 when none waits
//	POST /api/calls/{id}/view    {phase} → the tool's view for that phase
//	POST /api/calls/{id}/answer  {text, result, error} answers the call of a
//	                             tool only a client runs, as its client;
//	                             409 when none waits or it was answered
//	GET  /api/tools/{name}/mcp   the tool's tools/list entry as modhost mcp
//	                             lists it (?agent=NAME), or why it is not
//	POST /api/command            {id, args} → the command's message
//	POST /api/slash              {id, text} → the slash command's message
//	POST /api/prompt             {id, arguments} → the prompt's messages, as
//	                             prompts/get gives them
//	POST /api/complete           {prompt | template, argument, value, context}
//	                             → {values, total, hasMore}, as
//	                             completion/complete gives them
//	POST /api/read               {uri} → the resource's text, or a binary
//	                             one's size, as resources/read gives it
//	GET  /api/events             the state's version, then its changes:
//	                             "state", "call" (SSE)
//
// # Safety
//
// Every request carries the server's secret token, in the "token" query
// parameter (the printed URL, event streams) or the X-Modhost-Token header,
// compared in constant time. The Host header must name the listening
// address (a loopback one by name or number), and an Origin header, when
// present, that same host: a page of another site, or one that rebinds its
// DNS name to 127.0.0.1, gets 403. Views render in an iframe with
// sandbox="allow-scripts" from srcdoc, under their own Content Security
// Policy: an opaque origin that can reach neither the page nor the server.
//
// # Live reload
//
// [Server.Watch] watches each mod directory's Go sources, through the
// operating system's file events and a poll. On a change it
// regenerates the mod's manifest and validators (modgen), loads the mods
// afresh and builds and starts the changed one; only then does the new host
// replace the old, so a generator or compiler error (shown in the page with
// file:line:col) leaves the last good build serving. Calls in flight finish
// on the host they started on. A mod edited before the server started,
// without go generate, is reloaded as soon as Watch begins.
//
// # Performance
//
// BenchmarkPage measures the server's part of a first load (the page over
// loopback); BenchmarkReload a reload after a one-line
// edit next to go build of the same mod alone. The browser test reports
// the page's loads by Navigation and Paint Timing and the page's own
// "modhost:ready" mark (cold, each in a new browser context, and warm,
// with a baseline page for the browser's own cost), how long a status
// update takes from the mod's clock to the page's DOM, and an edit's way
// to the page.
package devserver
