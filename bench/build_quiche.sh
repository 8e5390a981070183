#!/usr/bin/env bash
# Builds quiche's C library (crates.io quiche with its `ffi` feature; boring-sys builds BoringSSL with cmake
# and g++, and runs bindgen, which needs libclang and its headers) for bench/h3_quiche_client.ts. Never part
# of loadlab.
#   build_quiche.sh [OUT_DIR]     -> OUT_DIR/libquiche.so (default /tmp/peers/quiche)
# COALESCE=1 builds OUT_DIR/libquiche-coalesce.so instead: quiche's sender with several STREAM frames a
# packet (stock quiche writes one a packet and coalesces only under its fuzzing feature), to measure that.
# On a busy machine: CARGO_BUILD_JOBS=1 nice bash bench/build_quiche.sh
set -euo pipefail
V=0.30.0; O=${1:-/tmp/peers/quiche}
if [ -z "${LIBCLANG_PATH:-}" ] && ! ldconfig -p | grep -qE 'libclang(-[0-9.]+)?\.so'; then
  echo "libclang is missing (bindgen needs it and its headers):" \
    "apt-get install libclang1-14 libclang-common-14-dev, or set LIBCLANG_PATH" >&2
  exit 1
fi
mkdir -p "$O/fetch/src"
# The crate's source comes from cargo's registry, through a throwaway manifest that depends on it.
printf '[package]\nname = "fetch-quiche"\nversion = "0.0.0"\nedition = "2021"\n' > "$O/fetch/Cargo.toml"
printf '[dependencies]\nquiche = "=%s"\n' "$V" >> "$O/fetch/Cargo.toml"
: > "$O/fetch/src/lib.rs"
cargo fetch --manifest-path "$O/fetch/Cargo.toml" >&2
SRC=$(cargo metadata --format-version 1 --manifest-path "$O/fetch/Cargo.toml" |
  grep -o "\"manifest_path\":\"[^\"]*/quiche-$V/Cargo.toml\"" | head -1 | sed 's/.*:"\(.*\)\/Cargo.toml"/\1/')
[ -d "$SRC" ] || { echo "quiche $V's source was not found in cargo's registry" >&2; exit 1; }
LIB=libquiche${COALESCE:+-coalesce}; rm -rf "$O/$LIB-src"; cp -rp "$SRC" "$O/$LIB-src"
if [ -n "${COALESCE:-}" ]; then
  F="$O/$LIB-src/src/lib.rs"
  RE='s/#\[cfg\(feature = "fuzzing"\)\]\s*\/\/ Coalesce STREAM frames when fuzzing\./\/\/ Coalesce./'
  perl -0pi -e "$RE" "$F"
  grep -q '// Coalesce\.$' "$F" || { echo "quiche $V: the coalescing patch did not apply" >&2; exit 1; }
fi
CARGO_TARGET_DIR="$O/target" cargo build --release --locked --lib --features ffi \
  --manifest-path "$O/$LIB-src/Cargo.toml" >&2
cp "$O/target/release/libquiche.so" "$O/$LIB.so"; echo "$O/$LIB.so"
