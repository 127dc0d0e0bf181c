# A small image with `mpsready` as its entry point (the scanner only; no LibTorch):
#   docker build -t mpsready .
#   docker run --rm -v "$PWD:/src" -w /src mpsready scan . --format github
# Stage 1 builds the Debian package (scripts/bootstrap --scan-only, then cpack); stage 2 installs
# it on debian:12-slim, which pulls in only the libraries the scanner links, and git for --diff.
FROM debian:12 AS build
WORKDIR /mpsready
COPY . .
RUN rm -rf build \
 && bash scripts/bootstrap --scan-only \
 && cd build && cpack -G DEB -D CPACK_COMPONENTS_ALL=scanner

FROM debian:12-slim
COPY --from=build /mpsready/build/mpsready_*.deb /tmp/
RUN apt-get update -q \
 && apt-get install -y -q --no-install-recommends /tmp/mpsready_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/mpsready_*.deb \
 && git config --system --add safe.directory '*'
ENTRYPOINT ["mpsready"]
CMD ["--help"]
