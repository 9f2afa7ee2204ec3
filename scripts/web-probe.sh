#!/usr/bin/env bash
# Builds the WebGPU pipeline probe (web/: every stage's pipelines compiled on the page's adapter,
# the adapter's limits printed) and runs it in headless Chromium, printing the report the page
# posts back.
# Needs: the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown),
# wasm-bindgen-cli of the lock file's wasm-bindgen (cargo install wasm-bindgen-cli --version V),
# python3 and Debian's chromium. Usage: scripts/web-probe.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/web-probe}"
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print }' Cargo.lock)
have=$(wasm-bindgen --version | awk '{ print $2 }')
if [ "$want" != "$have" ]; then
  echo "wasm-bindgen $have, the lock file's is $want: cargo install wasm-bindgen-cli --version $want" >&2
  exit 2
fi
cargo build -p boids-web --target wasm32-unknown-unknown --release
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out/pkg" \
  target/wasm32-unknown-unknown/release/boids_web.wasm
cp web/index.html "$out/"
port="${BOIDS_WEB_PORT:-8719}"
rm -f "$out/report.txt"
# The page's folder served, and the report it posts to /report written to report.txt.
python3 - "$out" "$port" >"$out/server.log" 2>&1 <<'PY' &
import http.server, os, sys
folder, port = sys.argv[1], int(sys.argv[2])
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=folder, **k)
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        tmp = os.path.join(folder, "report.txt.tmp")
        with open(tmp, "wb") as f:
            f.write(body)
        os.replace(tmp, os.path.join(folder, "report.txt"))
        self.send_response(204)
        self.end_headers()
http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
PY
server=$!
browser_dir=$(mktemp -d)
browser=""
cleanup() {
  kill $server $browser 2>/dev/null || true
  wait $browser 2>/dev/null || true
  rm -rf "$browser_dir" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html')" 2>/dev/null && break
  sleep 0.2
done
# WebGPU on Chromium's software adapter (SwiftShader); the page's console goes to chromium.log.
chromium --headless --no-sandbox --enable-unsafe-webgpu --use-webgpu-adapter=swiftshader \
  --user-data-dir="$browser_dir" --enable-logging=stderr --v=0 --remote-debugging-port=0 \
  "http://127.0.0.1:$port/index.html" 2>"$out/chromium.log" >/dev/null &
browser=$!
limit="${BOIDS_WEB_TIMEOUT_S:-300}"
for _ in $(seq "$limit"); do
  [ -f "$out/report.txt" ] && break
  sleep 1
done
if [ ! -f "$out/report.txt" ]; then
  echo "no report from the page within ${limit} s (Chromium's log: $out/chromium.log)" >&2
  grep -i "console\|error" "$out/chromium.log" | grep -v dbus | tail -20 >&2 || true
  exit 1
fi
cat "$out/report.txt"
grep -q "^FAILED" "$out/report.txt" && exit 1
exit 0
