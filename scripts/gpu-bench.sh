#!/usr/bin/env bash
# The speed sweep on whatever adapter is present, written as one folder:
#
#   scripts/gpu-bench.sh [OUT]        # OUT defaults to captures/gpu-bench-YYYYMMDDTHHMMSSZ
#
# 1. OUT/info.txt        — `boids info`: the adapters, their limits, bytes per boid, largest count;
# 2. OUT/cost_model.txt  — examples/cost_model: the adapter's FMA rate, copy bandwidth and
#                          candidate-load rate, candidates and neighbours per boid, and the cost
#                          model's floors beside the measured GPU step (docs/performance.md);
# 3. OUT/capture/        — `boids bench --backends gpu,cpu` from 1k to 16M boids (a capture folder:
#                          summary.json, the CSV, the plots); counts the adapter cannot hold are
#                          recorded as refused, not fatal;
# 4. OUT/large/          — `boids bench --backends gpu` at 32M, 64M and 100M boids, where the
#                          adapter holds them;
# 5. OUT/draw-instanced/, OUT/draw-compute/ — the draw: `boids bench --backends gpu --render
#                          1280x720` (no MSAA) at 20k, 100k, 1M and 4M boids (BOIDS_GPU_BENCH_DRAW)
#                          through the instanced draw and the compute rasteriser, one after the
#                          other (the render_ms column: the two rasterisers side by side, and the
#                          step beside them for the frame's simulate + draw).
# 6. OUT/sweep-small-gpu/, OUT/sweep-small-cpu/ — the sweep of small systems of
#                          docs/performance.md §8 (16 Vicsek points of 400 boids, 300 steps) on
#                          each backend, its wall time in OUT/sweep-small.txt and where a GPU
#                          point's time went (`costs`) in its summary.json.
# 7. OUT/ensembles/, OUT/lone-pipelines/ — `boids bench --replicas`: ensembles of 1, 16 and 64
#                          replicas of 400 and 10k boids (scenes/vicsek.toml, as docs/sweeps.md's
#                          table) against the same replicas run one after
#                          another (docs/sweeps.md, "Ensembles"), then one replica of 100k and 1M
#                          boids: a lone run's pipelines against an ensemble's of one replica
#                          (docs/performance.md §4) (BOIDS_GPU_BENCH_REPLICAS; empty to skip).
#
# Builds the release binaries first unless BOIDS_BIN and COST_MODEL_BIN name prebuilt ones.
# Environment: BOIDS_BENCH_STEPS (measured steps per run, default 50), BOIDS_GPU_BENCH_SIZES
# (default 1k,10k,100k,1M,4M,16M), BOIDS_GPU_BENCH_LARGE (default 32M,64M,100M; empty to skip),
# BOIDS_GPU_BENCH_DRAW (default 20k,100k,1M,4M; empty to skip), BOIDS_GPU_BENCH_REPLICAS
# (default 1,16,64; empty to skip).
# Needs a Vulkan (or Metal/DX12) adapter; on a machine without a GPU it measures lavapipe.
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:-captures/gpu-bench-$(date -u +%Y%m%dT%H%M%SZ)}
steps=${BOIDS_BENCH_STEPS:-50}
sizes=${BOIDS_GPU_BENCH_SIZES:-1k,10k,100k,1M,4M,16M}
large=${BOIDS_GPU_BENCH_LARGE-32M,64M,100M}
draw=${BOIDS_GPU_BENCH_DRAW-20k,100k,1M,4M}
replicas=${BOIDS_GPU_BENCH_REPLICAS-1,16,64}

if [ -z "${BOIDS_BIN:-}" ] || [ -z "${COST_MODEL_BIN:-}" ]; then
    cargo build --release --bin boids --example cost_model
fi
boids=${BOIDS_BIN:-target/release/boids}
cost_model=${COST_MODEL_BIN:-target/release/examples/cost_model}

mkdir -p "$out"
echo "== boids info" | tee "$out/info.txt"
"$boids" info 2>&1 | tee -a "$out/info.txt"

echo "== cost model"
"$cost_model" --sizes "$sizes" --steps 200 --measure 20 2>&1 | tee "$out/cost_model.txt"

echo "== bench $sizes (gpu, cpu)"
"$boids" bench --backends gpu,cpu --boids "$sizes" --steps "$steps" --warmup 5 --quiet \
    --out "$out/capture" 2>&1 | tee "$out/bench.txt"

if [ -n "$large" ]; then
    echo "== bench $large (gpu)"
    "$boids" bench --backends gpu --boids "$large" --steps 20 --warmup 3 --quiet \
        --out "$out/large" 2>&1 | tee "$out/bench-large.txt" || true
fi
if [ -n "$draw" ]; then
    for r in instanced compute; do
        echo "== draw $draw ($r, 1280x720)"
        "$boids" bench --backends gpu --boids "$draw" --steps "$steps" --warmup 5 --quiet \
            --render 1280x720 --msaa 1 --rasteriser "$r" \
            --out "$out/draw-$r" 2>&1 | tee "$out/draw-$r.txt" || true
    done
fi
for b in gpu cpu; do
    echo "== sweep of small systems ($b)" | tee -a "$out/sweep-small.txt"
    start=$(date +%s%N)
    "$boids" sweep --scene scenes/vicsek.toml --param vicsek_eta --values 0:3:0.2 --boids 400 \
        --steps 300 --discard 100 --backend "$b" --out "$out/sweep-small-$b" --quiet \
        2>&1 | tee -a "$out/sweep-small.txt" || true
    echo "wall $(( ($(date +%s%N) - start) / 1000000 )) ms" | tee -a "$out/sweep-small.txt"
done
if [ -n "$replicas" ]; then
    echo "== ensembles of $replicas replicas (gpu)"
    "$boids" bench --replicas "$replicas" --scene scenes/vicsek.toml --boids 400,10k \
        --steps "$steps" --warmup 5 --quiet --out "$out/ensembles" 2>&1 | tee "$out/ensembles.txt" || true
    echo "== a lone run's pipelines against an ensemble's of one replica (gpu)"
    "$boids" bench --replicas 1 --boids 100k,1M --steps 20 --warmup 3 --quiet \
        --out "$out/lone-pipelines" 2>&1 | tee "$out/lone-pipelines.txt" || true
fi
echo "written: $out"
