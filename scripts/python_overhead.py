#!/usr/bin/env python3
"""Measures what stepping from Python costs against the command line (docs/python.md).

    python scripts/python_overhead.py [--counts 1000,100000] [--steps 200] [--backend cpu]

For each count, one run of each:
  cli        `boids headless --boids N --steps S` as a process: its wall time, and the step time it
             reports (mean × S: the steps alone);
  py setup   boids.Simulation(boids=N): the same setup (resolve, spawn, backend);
  py step(S) one call of S steps;
  py S×step(1)  S calls of one step: the per-call cost is (this − step(S)) / S.
Then the cost of a call alone, where a step costs little: 16 boids, 5000 × step(1) against one
step(5000), and 5000 × step(0) (a call that runs no step).
Needs the module installed (pip install ./python) and target/release/boids (cargo build --release),
or BOIDS_BIN.
"""

import argparse
import os
import re
import subprocess
import time
from pathlib import Path

import boids

ROOT = Path(__file__).resolve().parent.parent


def cli_run(exe, n, steps, backend):
    t = time.perf_counter()
    out = subprocess.run([exe, "headless", "--backend", backend, "--boids", str(n), "--steps",
                          str(steps)], capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t
    mean = re.search(r"step time:.*mean ([0-9.]+) (µs|ms|s)", out)
    scale = {"µs": 1e-6, "ms": 1e-3, "s": 1.0}[mean.group(2)]
    return wall, float(mean.group(1)) * scale * steps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", default="1000,100000")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--backend", default="cpu")
    a = ap.parse_args()
    exe = os.environ.get("BOIDS_BIN", str(ROOT / "target" / "release" / "boids"))
    s = a.steps
    print(f"{'boids':>7} {'cli wall':>9} {'cli steps':>9} {'py setup':>9} {'py step(S)':>10} "
          f"{'py S×step(1)':>12} {'per call':>9}  (s; S = {s}, backend {a.backend})")
    for n in map(int, a.counts.split(",")):
        wall, cli_steps = cli_run(exe, n, s, a.backend)
        t = time.perf_counter()
        sim = boids.Simulation(boids=n, backend=a.backend)
        setup = time.perf_counter() - t
        t = time.perf_counter()
        sim.step(s)
        one_call = time.perf_counter() - t
        t = time.perf_counter()
        for _ in range(s):
            sim.step(1)
        many = time.perf_counter() - t
        per_call = (many - one_call) / s
        print(f"{n:>7} {wall:>9.3f} {cli_steps:>9.3f} {setup:>9.3f} {one_call:>10.3f} "
              f"{many:>12.3f} {per_call * 1e6:>7.1f}µs")
    k = 5000
    sim = boids.Simulation(boids=16, backend=a.backend)
    t = time.perf_counter()
    sim.step(k)
    one_call = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(k):
        sim.step(1)
    many = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(k):
        sim.step(0)
    empty = time.perf_counter() - t
    print(f"16 boids: step({k}) {one_call / k * 1e6:.1f} µs/step, {k} × step(1) "
          f"{many / k * 1e6:.1f} µs/call: {(many - one_call) / k * 1e6:.1f} µs per call; "
          f"step(0) {empty / k * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
