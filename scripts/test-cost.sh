#!/usr/bin/env bash
# What the test suite costs on this machine, in one sitting: the build of the tests
# (`cargo test --release --no-run`, clean when --clean is given), a rebuild after an edit of the
# crate, the run (`cargo test --release`) with its peak memory, and the size of target/.
# Usage: scripts/test-cost.sh OUT_DIR [--clean]. Needs GNU time (/usr/bin/time). The run needs what
# .ci/run sets up (a display, BOIDS_REQUIRE_GPU, the Slurm cluster) for every test to run.
set -euo pipefail
out="${1:?usage: scripts/test-cost.sh OUT_DIR [--clean]}"
mkdir -p "$out"
cd "$(dirname "$0")/.."
if [ "${2:-}" = "--clean" ]; then
  cargo clean
fi
t() { # name, command...: wall time and peak memory of the command into $out/name.time
  local name="$1"; shift
  /usr/bin/time -f '%e s wall, %M KiB peak' -o "$out/$name.time" "$@" >"$out/$name.log" 2>&1
  echo "$name: $(cat "$out/$name.time")"
}
t build cargo test --release --no-run
touch src/lib.rs
t rebuild cargo test --release --no-run
t run cargo test --release
du -sm target | awk '{print "target/: " $1 " MiB"}' | tee "$out/target.size"
grep -E '^test result:' "$out/run.log" | awk '{p+=$4; f+=$6; i+=$8} END {print "tests: " p " passed, " f " failed, " i " ignored"}' | tee "$out/counts"
