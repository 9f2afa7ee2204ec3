#!/usr/bin/env python3
"""freud's cost for what `cargo bench --bench analyses -- --boids N` times in boids: C(r) of the
velocity fluctuations (freud.density.CorrelationFunction) and g(r) (freud.density.RDF) of one state
of N boids uniform at the default density (0.01 per wu²), r_max = 200 wu (10 perception radii), 50
bins, with the same smooth velocity field; each the fastest of 3 runs, in s. Run both in one
sitting to compare: `python3 scripts/analyses_vs_freud.py [N]` (default 100000; needs freud and
numpy)."""

import sys
import time

import freud
import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
side = (n / 0.01) ** 0.5
rng = np.random.default_rng(1)
pos = np.zeros((n, 3), dtype=np.float32)
pos[:, :2] = rng.random((n, 2)) * side - side / 2
x, y = pos[:, 0] + side / 2, pos[:, 1] + side / 2
a = np.sin(x / 300) * 2 + np.cos(y / 200) + rng.random(n) - 0.5
v = np.stack([np.cos(a), np.sin(a)], axis=1)
dv = v - v.mean(axis=0)
phi = dv / np.sqrt(np.mean(np.sum(dv**2, axis=1)))
z = phi[:, 0] + 1j * phi[:, 1]
box = freud.box.Box.square(side)


def fastest(f):
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


print(f"{n} boids in {side:.0f} × {side:.0f} wu, r_max 200 wu, 50 bins; freud {freud.__version__}, "
      f"{freud.parallel.get_num_threads() or 'all the'} threads")
cf = freud.density.CorrelationFunction(bins=50, r_max=200.0)
print(f"C(r) freud:       {fastest(lambda: cf.compute(system=(box, pos), values=z)):.3f} s")
rdf = freud.density.RDF(bins=50, r_max=200.0)
print(f"g(r) freud:       {fastest(lambda: rdf.compute(system=(box, pos))):.3f} s")
