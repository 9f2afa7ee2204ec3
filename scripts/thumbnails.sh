#!/usr/bin/env bash
# Remakes the preset gallery's thumbnails, scenes/thumbs/<scene>.png (160 × 90 px), each scene
# drawn by `boids snapshot` after 600 steps on the CPU backend (10 s of simulated time at the
# default Δt), as the app would show it. `million` is drawn with 100 000 of its boids (its world
# is sized to the count, so the look is the same; a million steps slowly on two cores).
# Usage: scripts/thumbnails.sh [path/to/boids]
set -euo pipefail
cd "$(dirname "$0")/.."
boids="${1:-target/release/boids}"
for scene in scenes/*.toml; do
  name="$(basename "$scene" .toml)"
  extra=()
  [ "$name" = million ] && extra=(--boids 100000)
  "$boids" snapshot --scene "$scene" --backend cpu --steps 600 --width 160 --height 90 \
    --msaa 4 "${extra[@]}" --out "scenes/thumbs/$name.png" >/dev/null
  echo "scenes/thumbs/$name.png"
done
