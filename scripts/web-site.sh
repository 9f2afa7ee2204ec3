#!/usr/bin/env bash
# Builds the web app as a static site in OUT_DIR (default target/web-site): index.html (the app),
# probe.html and view.html (the pipeline probe and the bare flock view), page.js, and pkg/ (the
# WebAssembly module and its JavaScript). Any static file server can serve the folder, e.g.
# `python3 -m http.server -d target/web-site 8000`, then open http://localhost:8000 in a browser
# with WebGPU. Needs the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown),
# wasm-bindgen-cli of the lock file's wasm-bindgen (the script names the install command) and
# python3.
# Usage: scripts/web-site.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/web-site}"
command -v wasm-bindgen >/dev/null || {
  want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print }' Cargo.lock)
  echo "no wasm-bindgen on the PATH: cargo install wasm-bindgen-cli --version $want" >&2
  exit 2
}
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print }' Cargo.lock)
have=$(wasm-bindgen --version | awk '{ print $2 }')
if [ "$want" != "$have" ]; then
  echo "wasm-bindgen $have, the lock file's is $want: cargo install wasm-bindgen-cli --version $want" >&2
  exit 2
fi
[ -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown" ] || {
  echo "no wasm32-unknown-unknown target: rustup target add wasm32-unknown-unknown" >&2
  exit 2
}
mkdir -p "$out" || { echo "cannot make the output folder $out" >&2; exit 2; }
cargo build -p boids-web --target wasm32-unknown-unknown --release
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
# Without the name section (function names for debuggers): a tenth of the download.
wasm-bindgen --target web --no-typescript --remove-name-section --out-dir "$out/pkg" \
  "$target_dir/wasm32-unknown-unknown/release/boids_web.wasm"
cp web/index.html web/probe.html web/view.html web/page.js "$out/"
echo "site: $out (serve it: python3 -m http.server -d $out 8000)" >&2
