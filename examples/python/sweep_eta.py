"""Sweeps the Vicsek model's noise η and plots the order parameter v_a against it.

    python examples/python/sweep_eta.py [--boids 4000] [--steps 600] [--out va_eta.png]

Each η starts the scene scenes/vicsek.toml (density 4, v0 = 0.03) afresh, discards the first half
of the steps as the transient and averages v_a over the rest (one sample every 10 steps), with the
standard error of those samples as the error bar (an underestimate where samples correlate; `boids
sweep` gives block-jackknife errors). Needs matplotlib.
"""

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import boids  # noqa: E402

SCENE = Path(__file__).resolve().parents[2] / "scenes" / "vicsek.toml"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boids", type=int, default=4000)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--out", default="va_eta.png")
    a = ap.parse_args()

    etas = np.linspace(0.0, 5.0, 11)
    means, errors = [], []
    for eta in etas:
        sim = boids.Simulation(scene=SCENE, backend=a.backend, seed=a.seed, boids=a.boids,
                               vicsek_eta=float(eta))
        sim.step(a.steps // 2)
        samples = []
        for _ in range(a.steps // 2 // 10):
            sim.step(10)
            samples.append(sim.measures()["va"])
        samples = np.array(samples)
        means.append(samples.mean())
        errors.append(samples.std(ddof=1) / np.sqrt(len(samples)))
        print(f"eta = {eta:.2f}   v_a = {means[-1]:.4f} ± {errors[-1]:.4f}")

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(etas, means, yerr=errors, marker="o", capsize=3)
    ax.set_xlabel("noise η (rad)")
    ax.set_ylabel("order parameter v_a")
    ax.set_ylim(0, 1.05)
    ax.set_title(f"Vicsek model, N = {a.boids}, ρ = 4, {a.steps} steps")
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
