#!/usr/bin/env bash
# Builds bench/h3_rust_server (quinn + h3 for HTTP/3, hyper + rustls for h2, one thread) for `deno task bench
# --h3 --server rust`: a server fast enough that the generators, not it, are measured. Never part of loadlab.
# Needs cargo; the crates come from ~/.cargo/registry when present (oha's http3 build leaves them there).
#   build_h3_rust_server.sh [OUT_DIR]     -> OUT_DIR/h3_rust_server (default /tmp/peers/h3rs)
set -euo pipefail
O=${1:-/tmp/peers/h3rs}; S=$(cd "$(dirname "$0")/h3_rust_server" && pwd)
mkdir -p "$O"
CARGO_TARGET_DIR="$O/target" cargo build --release --locked --manifest-path "$S/Cargo.toml" >&2
cp "$O/target/release/h3-rust-server" "$O/h3_rust_server"; echo "$O/h3_rust_server"
