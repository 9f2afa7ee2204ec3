"""Writes a GSD trajectory from Python and reads it back with the `gsd` package.

    python examples/python/trajectory.py [--out flock.gsd] [--frames 20] [--every 10]

The scene scenes/predators.toml (hunting predators among boids) runs for frames × every steps, one
frame written every `every` steps with boids.Trajectory (the writer of `boids headless
--trajectory`); then gsd.hoomd reads the file and prints, for each frame, the step, the particle
count, the mean speed of the boids and how far the predators moved. Needs `pip install gsd`.
"""

import argparse
from pathlib import Path

import gsd.hoomd
import numpy as np

import boids

SCENE = Path(__file__).resolve().parents[2] / "scenes" / "predators.toml"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="flock.gsd")
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--boids", type=int, default=5000)
    a = ap.parse_args()

    sim = boids.Simulation(scene=SCENE, boids=a.boids, seed=7)
    with boids.Trajectory(a.out) as traj:
        traj.append(sim)  # frame 0: the initial state
        for _ in range(a.frames - 1):
            sim.step(a.every)
            traj.append(sim)
    print(f"wrote {a.out}: {a.frames} frames of {len(sim)} boids")

    with gsd.hoomd.open(a.out, "r") as t:
        first = t[0]
        predators = first.particles.typeid == first.particles.types.index("predator")
        p0 = first.particles.position[predators, :2]
        for f in t:
            boid = f.particles.typeid == f.particles.types.index("boid")
            speed = np.hypot(*f.particles.velocity[boid, :2].T).mean()
            moved = np.hypot(*(f.particles.position[predators, :2] - p0).T)
            print(f"step {f.configuration.step:5d}  N = {f.particles.N}  "
                  f"mean boid speed {speed:6.2f} wu/s  predators moved {np.round(moved, 1)} wu "
                  f"(box {f.configuration.box[0]:.0f} × {f.configuration.box[1]:.0f}, centred)")
        # The ids and hue vectors travel in log chunks; the heading as a quaternion about z.
        last = t[-1]
        print("ids", last.log["particles/id"][:5], "hues", last.log["particles/hue"][:2].tolist())
        print("orientation", last.particles.orientation[:2].tolist())


if __name__ == "__main__":
    main()
