# syntax=docker/dockerfile:1
# Build: make image IMG=registry.example/multislice-scheduler:TAG
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
COPY vendor/ vendor/
COPY cmd/ cmd/
COPY pkg/ pkg/
ARG VERSION=devel
ARG COMMIT=unknown
ARG BUILD_DATE=unknown
RUN CGO_ENABLED=0 go build -mod=vendor -trimpath \
      -ldflags "-s -w \
        -X github.com/multislice-scheduler/multislice-scheduler/pkg/version.gitVersion=${VERSION} \
        -X github.com/multislice-scheduler/multislice-scheduler/pkg/version.gitCommit=${COMMIT} \
        -X github.com/multislice-scheduler/multislice-scheduler/pkg/version.buildDate=${BUILD_DATE}" \
      -o /out/ ./cmd/multislice-scheduler ./cmd/multislice-webhook

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/multislice-scheduler /multislice-scheduler
# The optional admission webhook (chart value webhook.enabled).
COPY --from=build /out/multislice-webhook /multislice-webhook
USER 65532:65532
ENTRYPOINT ["/multislice-scheduler"]
