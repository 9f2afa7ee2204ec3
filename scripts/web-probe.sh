#!/usr/bin/env bash
# Builds the WebGPU pipeline probe (web/: every stage's pipelines compiled on the page's adapter,
# the adapter's limits printed, then known flocks stepped there) and runs it in headless
# Chromium, printing the report the page posts back; the flocks' states go to OUT_DIR/states.txt
# (tests/it/web.rs compares them with the native GPU backend's).
# Needs: the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown),
# wasm-bindgen-cli of the lock file's wasm-bindgen (cargo install wasm-bindgen-cli --version V),
# python3 and Debian's chromium. Usage: scripts/web-probe.sh [OUT_DIR]
# A probe: it exits 0 when the page reported, whatever it found refused (1 when the page could not
# run: no WebGPU, no adapter; 2 for a missing tool or a busy port). BOIDS_WEB_PORT (8719): the
# local port; BOIDS_WEB_TIMEOUT_S (300): how long to wait for the page's report (the page gives up
# 30 s before, with its own message); BOIDS_WEB_WEBGPU=off: Chromium without WebGPU (the page
# then says so, and the script exits 1); BOIDS_WEB_PAGE=view.html: the flock drawn in a canvas
# instead, its frame rate reported and the flock posted as OUT_DIR/view.png (BOIDS_WEB_QUERY:
# its URL parameters, e.g. boids=20000&seconds=10&offscreen=1; headless Chromium needs
# offscreen=1: it cannot present a WebGPU canvas on its software adapter). OUT_DIR holds the
# site (scripts/web-site.sh: index.html, probe.html, view.html, page.js, pkg/) and this run's outputs beside it (report.txt,
# states.txt, view.png, the logs, .probe-token).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/web-probe}"
for tool in chromium python3; do
  command -v "$tool" >/dev/null || { echo "no $tool on the PATH (see this script's header)" >&2; exit 2; }
done
port="${BOIDS_WEB_PORT:-8719}"
case "$port" in
  ''|*[!0-9]*) echo "BOIDS_WEB_PORT=$port: a port number (1024 to 65535)" >&2; exit 2 ;;
esac
case "${BOIDS_WEB_WEBGPU:-on}" in
  on|off) ;;
  *) echo "BOIDS_WEB_WEBGPU=$BOIDS_WEB_WEBGPU: on or off" >&2; exit 2 ;;
esac
[ -f "web/${BOIDS_WEB_PAGE:-probe.html}" ] ||
  { echo "BOIDS_WEB_PAGE=${BOIDS_WEB_PAGE:-}: no such page in web/ (probe.html, view.html)" >&2; exit 2; }
scripts/web-site.sh "$out"
rm -f "$out/report.txt" "$out/states.txt" "$out/view.png"
# A token only this run's folder holds: the readiness check below must be answered by this run's
# server, not by another on the same port.
token="$$-$RANDOM-$(date +%s%N)"
echo "$token" >"$out/.probe-token"
# The page's folder served, and the report it posts to /report written to report.txt.
python3 - "$out" "$port" >"$out/server.log" 2>&1 <<'PY' &
import http.server, os, sys
folder, port = sys.argv[1], int(sys.argv[2])
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=folder, **k)
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        name = self.path.strip("/")
        if name not in ("report", "states", "view.png"):
            self.send_response(404)
            self.end_headers()
            return
        file = name if "." in name else name + ".txt"
        tmp = os.path.join(folder, file + ".tmp")
        with open(tmp, "wb") as f:
            f.write(body)
        os.replace(tmp, os.path.join(folder, file))
        self.send_response(204)
        self.end_headers()
http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
PY
server=$!
browser_dir=$(mktemp -d)
browser=""
cleanup() {
  kill $server $browser 2>/dev/null || true
  [ -z "$browser" ] || wait "$browser" 2>/dev/null || true
  rm -rf "$browser_dir" 2>/dev/null || true
}
trap cleanup EXIT
ready=""
for _ in $(seq 50); do
  if ! kill -0 "$server" 2>/dev/null; then
    cat "$out/server.log" >&2
    echo "the page's server stopped (port $port in use? set BOIDS_WEB_PORT)" >&2
    exit 2
  fi
  got=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$port/.probe-token').read().decode().strip())" 2>/dev/null || true)
  if [ "$got" = "$token" ]; then ready=1; break; fi
  if [ -n "$got" ]; then
    echo "port $port answers for another server (another probe?): set BOIDS_WEB_PORT" >&2
    exit 2
  fi
  sleep 0.2
done
[ -n "$ready" ] || { echo "the page's server did not answer on port $port" >&2; exit 2; }
limit="${BOIDS_WEB_TIMEOUT_S:-300}"
page_limit=$(( limit > 60 ? limit - 30 : limit / 2 ))
# WebGPU on Chromium's software adapter (SwiftShader); the page's console goes to chromium.log.
webgpu="--enable-unsafe-webgpu --use-webgpu-adapter=swiftshader"
[ "${BOIDS_WEB_WEBGPU:-on}" = off ] && webgpu="--disable-features=WebGPU"
chromium --headless --no-sandbox $webgpu \
  --user-data-dir="$browser_dir" --enable-logging=stderr --v=0 --remote-debugging-port=0 \
  --disable-background-networking --disable-component-update --disable-sync --no-first-run \
  "http://127.0.0.1:$port/${BOIDS_WEB_PAGE:-probe.html}?timeout=$page_limit${BOIDS_WEB_QUERY:+&$BOIDS_WEB_QUERY}" \
  2>"$out/chromium.log" >/dev/null &
browser=$!
for _ in $(seq "$limit"); do
  [ -f "$out/report.txt" ] && break
  kill -0 "$browser" 2>/dev/null || break
  sleep 1
done
if [ ! -f "$out/report.txt" ]; then
  if kill -0 "$browser" 2>/dev/null; then
    echo "no report from the page within ${limit} s (Chromium's log: $out/chromium.log)" >&2
  else
    echo "Chromium stopped before the page reported; the end of its log:" >&2
  fi
  grep -v dbus "$out/chromium.log" | tail -20 >&2 || true
  exit 1
fi
cat "$out/report.txt"
grep -q "^FAILED" "$out/report.txt" && exit 1
exit 0
