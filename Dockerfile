# syntax=docker/dockerfile:1
#
# modhost with its mods built ahead of time: the runtime image carries no
# go command, runs as a non-root user and works on a read-only root
# filesystem, with temporary files in /tmp (mount an emptyDir there) and
# the sessions' workspace in /workspace (another). docs/deploy.md builds
# it and runs it in Kubernetes.
#
# The builder compiles modhost, then runs modhost build, which builds every
# mod the host will load (--mods and ./mods.lock) into a prebuilt cache.
# The runtime stage holds modhost, the mods' package directories (the host
# reads their manifests and checks their sources against the cache) and
# that cache, read-only, as $MODKIT_CACHE. To ship other mods, change MODS
# (directories in the build context) or put a mods.lock beside this file.

ARG GO_IMAGE=golang:1.26-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot

# The builder runs on the machine's own platform and builds for the
# image's (docker buildx build --platform linux/arm64,linux/amd64).
FROM --platform=${BUILDPLATFORM} ${GO_IMAGE} AS build
ARG TARGETOS
ARG TARGETARCH
# Everything static: the runtime base has no C library to offer.
ENV CGO_ENABLED=0
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG MODS="examples/research examples/dependencies"
# modhost twice: one for the image, one that runs modhost build here.
RUN GOOS=${TARGETOS} GOARCH=${TARGETARCH} go build -trimpath -o /out/usr/local/bin/modhost ./cmd/modhost && \
	go build -trimpath -o /usr/local/bin/modhost ./cmd/modhost
# The mods are copied to /mods/<name>, as the runtime holds them, and
# built from their place in the module; mods.lock's are copied into the
# cache, where the host finds them.
RUN set -eu; mkdir -p /out/mods /out/app; dirs=; \
	for m in $MODS; do \
		cp -r "$m" /out/mods/; dirs="$dirs${dirs:+,}/src/$m"; \
	done; \
	find /out/mods \( -name '*_test.go' -o -name testdata \) -prune -exec rm -rf {} +; \
	if [ -f mods.lock ]; then cp mods.lock /out/app/; fi; \
	modhost --mods "$dirs" build --goos "${TARGETOS:-linux}" --goarch "${TARGETARCH:-$(go env GOARCH)}" -o /out/cache; \
	chmod -R a+rX,go-w /out

FROM ${RUNTIME_IMAGE}
COPY --from=build /out/usr/local/bin/modhost /usr/local/bin/modhost
COPY --from=build /out/mods /mods
COPY --from=build /out/cache /cache
COPY --from=build /out/app /app
ENV MODKIT_CACHE=/cache TMPDIR=/tmp
WORKDIR /app
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/modhost"]
CMD ["--mods=/mods/research,/mods/dependencies", "--workspace=/workspace", "mcp", "--http=0.0.0.0:8080"]
