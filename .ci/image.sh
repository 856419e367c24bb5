#!/usr/bin/env bash
# Builds and runs the runtime image once with podman, as docs/deploy.md's
# Deployment runs it: a read-only root filesystem, user 65532, every
# capability dropped, no new privileges, the runtime's default seccomp
# profile, /tmp on tmpfs, a workspace mounted read-only, no network. It checks that both
# example mods run from the prebuilt cache there, confined by Landlock.
#
# The Dockerfile's bases (golang, distroless) come from registries a CI
# machine may not reach, so this script does the builder stage's work with
# this machine's go command and puts the same files in an image FROM
# scratch: the layout of the Dockerfile's last stage. Without podman it
# says so and exits 0, or 1 under CI.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
if ! command -v podman >/dev/null; then
	echo "podman is not installed: the image is not built (apt-get install podman runc)"
	[ -z "${CI:-}" ] || exit 1 # under CI a check that lacks what it needs fails
	exit 0
fi
tag=localhost/modkit-image-check:$$
work=$(mktemp -d)
cleanup() {
	podman rmi -f "$tag" >/dev/null 2>&1 || true
	chmod -R u+w "$work" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# The builder stage.
ctx=$work/ctx
mkdir -p "$ctx/usr/local/bin" "$ctx/mods" "$ctx/app"
CGO_ENABLED=0 go build -trimpath -o "$ctx/usr/local/bin/modhost" ./cmd/modhost
for m in research dependencies; do
	cp -r "examples/$m" "$ctx/mods/"
done
find "$ctx/mods" \( -name '*_test.go' -o -name testdata \) -prune -exec rm -rf {} +
(cd "$work" && CGO_ENABLED=0 "$ctx/usr/local/bin/modhost" --mods "$repo/examples/research,$repo/examples/dependencies" build -o "$ctx/cache")
chmod -R a+rX,go-w "$ctx"
# A workspace holding a Go module, for the dependencies mod.
mkdir -p "$work/ws/store"
printf 'module example.com/app\n\ngo 1.24\n' >"$work/ws/go.mod"
printf 'package main\n\nimport _ "example.com/app/store"\n\nfunc main() {}\n' >"$work/ws/main.go"
printf 'package store\n' >"$work/ws/store/store.go"
chmod -R a+rX "$work/ws"

# The last stage, on scratch.
cat >"$work/Containerfile" <<'CONTAINERFILE'
FROM scratch
COPY usr /usr
COPY mods /mods
COPY cache /cache
COPY app /app
ENV MODKIT_CACHE=/cache TMPDIR=/tmp
WORKDIR /app
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/modhost"]
CONTAINERFILE
podman build -q -t "$tag" -f "$work/Containerfile" "$ctx" >/dev/null

# crun refuses hosts with cgroup v1 and v2 mounted side by side, where runc
# works; a container may not raise its limits past the host's.
flags=(--rm --read-only --read-only-tmpfs=false --tmpfs /tmp:rw,mode=1777 --volume "$work/ws:/workspace:ro"
	--user 65532:65532 --cap-drop=ALL --security-opt=no-new-privileges --network=none
	--ulimit nofile=1024:1024 --ulimit nproc=4096:4096)
global=()
if command -v runc >/dev/null; then
	global=(--runtime runc)
fi
run() {
	podman "${global[@]}" run "${flags[@]}" "$tag" --mods=/mods/research,/mods/dependencies --workspace=/workspace "$@"
}
failed=0
check() {
	local want=$1 out
	shift
	if out=$(run "$@" 2>&1) && grep -q -- "$want" <<<"$out"; then
		echo "ok   modhost $*"
	else
		echo "FAIL modhost $*: want $want in:"
		echo "$out"
		failed=1
	fi
}
check research_word_count list
check '3 words' call research_word_count '{"text":"one two three"}'
check 'example.com/app' call dependencies_inspect '{"package":"example.com/app/store"}'
[ "$failed" -eq 0 ] || exit 1
echo "the runtime image runs both example mods read-only, as user 65532, with no go command"
