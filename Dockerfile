# plantmock as a container image: a static binary on an empty base.
#
# Build the binary next to this file first; nothing here needs the network:
#   CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o plantmock ./cmd/plantmock
#   docker build -t plantmock .        (podman: podman build --format docker -t plantmock .)
FROM scratch
COPY plantmock /plantmock
USER 65532:65532
ENV PLANTMOCK_ADDR=0.0.0.0:4010
EXPOSE 4010
HEALTHCHECK --interval=5s --timeout=3s --start-period=2s --retries=3 CMD ["/plantmock", "health"]
ENTRYPOINT ["/plantmock"]
