#!/usr/bin/env bash
# A parameter sweep split into shards run side by side on one machine (GNU parallel when present,
# else xargs -P), then merged: the same sweep.csv as one `boids sweep` run, byte for byte.
#
#   examples/parallel/sweep.sh [JOBS] [-- sweep options…]
#
# JOBS (default: the CPU count / 2, at least 1) shards run at once, each with RAYON_NUM_THREADS=2
# (the CPU backend's threads). It runs in the caller's folder: relative paths in the sweep options
# (--scene) are the caller's, and the results go to ./sweeps/parallel-<UTC time>/merged (plus one
# folder per shard) there. BOIDS selects the binary (default: this repository's
# target/release/boids, else `boids` on PATH).
set -euo pipefail
REPO="$(cd "$(dirname "$0")/../.." && pwd)"

JOBS="${1:-$(($(nproc) / 2))}"
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
shift || true
[ "${1:-}" = "--" ] && shift
if [ "$#" -eq 0 ]; then
  set -- --param rotational_diffusion --values 0:5:0.5 \
    --boids 4000 --steps 2000 --discard 500 --backend cpu
fi
BOIDS="${BOIDS:-$REPO/target/release/boids}"
[ -x "$BOIDS" ] || BOIDS=boids

ROOT="sweeps/parallel-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$ROOT"
export BOIDS ROOT RAYON_NUM_THREADS="${RAYON_NUM_THREADS:-2}"
echo "$JOBS shards into $ROOT"

# One shard: its index, the shard count, then the sweep options.
run_shard() {
  local i="$1" n="$2"
  shift 2
  "$BOIDS" sweep "$@" --shard "$i/$n" --out "$ROOT/shard-$i" --quiet
}
export -f run_shard

if command -v parallel >/dev/null; then
  parallel --halt now,fail=1 run_shard {} "$JOBS" "$@" ::: $(seq "$JOBS")
else
  seq "$JOBS" | xargs -P "$JOBS" -I{} bash -c 'run_shard "$@"' _ {} "$JOBS" "$@"
fi
"$BOIDS" sweep merge "$ROOT/merged" "$ROOT"/shard-*
