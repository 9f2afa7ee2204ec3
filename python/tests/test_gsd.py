"""GSD trajectories read with the `gsd` package: `boids headless --trajectory` frames hold the
checkpoints of the same steps in HOOMD's conventions (rows in id order, a 2D box with Lz = 0);
boids.Trajectory writes the same frames; `init="FILE.gsd:FRAME"` starts from a frame."""

from pathlib import Path

import gsd.hoomd
import numpy as np
import pytest

import boids
from conftest import PREDATORS, VICSEK


def checkpoint(path):
    """The boids of a checkpoint: ids (uint32), the (N, 8) float32 columns x, y, vx, vy, hx, hy,
    hvx, hvy and the (N, 2) int32 image counts ix, iy, sorted by id (a checkpoint keeps the storage
    order; a frame's rows are in id order)."""
    lines = [l for l in Path(path).read_text().splitlines() if l and not l.startswith("#")]
    assert lines[0] == "id,x,y,vx,vy,hx,hy,hvx,hvy,ix,iy"
    rows = np.array([l.split(",") for l in lines[1:]])
    ids = rows[:, 0].astype(np.uint32)
    order = np.argsort(ids)
    # Written in shortest round-trip form: parsed as float64, they round to the float32 values.
    cols = rows[order, 1:9].astype(np.float64).astype(np.float32)
    return ids[order], cols, rows[order, 9:11].astype(np.int32)


def test_cli_frames_are_the_checkpoints_of_the_same_steps(cli, tmp_path):
    t = tmp_path / "t.gsd"
    args = ["headless", "--scene", VICSEK, "--boids", 1500, "--seed", 9]
    cli(*args, "--steps", 20, "--every", 10, "--trajectory", t)
    with gsd.hoomd.open(str(t), "r") as traj:
        assert len(traj) == 3
        for k, steps in enumerate([0, 10, 20]):
            cp = tmp_path / f"cp{steps}.csv"
            cli(*args, "--steps", steps, "--save", cp)
            ids, cols, images = checkpoint(cp)
            f = traj[k]
            n = len(ids)
            w, h = boids.Simulation(scene=VICSEK, boids=1500).world
            assert f.configuration.step == steps
            assert f.configuration.dimensions == 2
            # A 2D box: Lz = 0, as HOOMD >= 3, gsd and freud take it.
            np.testing.assert_array_equal(f.configuration.box, np.float32([w, h, 0, 0, 0, 0]))
            assert f.particles.N == n
            assert f.particles.types == ["boid"]
            np.testing.assert_array_equal(f.particles.typeid, np.zeros(n))
            assert f.particles.position.shape == (n, 3) and f.particles.position.dtype == np.float32
            # Centred on the origin, as HOOMD expects: x - W/2 in float32.
            half = np.float32([w / 2, h / 2])
            np.testing.assert_array_equal(f.particles.position[:, :2], cols[:, 0:2] - half)
            np.testing.assert_array_equal(f.particles.position[:, 2], 0)
            np.testing.assert_array_equal(f.particles.velocity[:, :2], cols[:, 2:4])
            # The image counts are the checkpoint's: x + ix·W is the unwrapped position.
            np.testing.assert_array_equal(f.particles.image[:, :2], images)
            np.testing.assert_array_equal(f.particles.image[:, 2], 0)
            # Row i is the boid of the i-th smallest id in every frame (the frames are compared
            # with the checkpoints sorted by id).
            np.testing.assert_array_equal(f.log["particles/id"], ids)
            np.testing.assert_array_equal(f.log["particles/Particle Identifier"], ids)
            np.testing.assert_array_equal(f.log["particles/hue"], cols[:, 4:6])
            np.testing.assert_array_equal(f.log["particles/hue_velocity"], cols[:, 6:8])
            np.testing.assert_array_equal(f.log["particles/world_position"], cols[:, 0:2])
            # The heading as a rotation about z: (cos θ/2, 0, 0, sin θ/2).
            q = f.particles.orientation
            theta = np.arctan2(cols[:, 3], cols[:, 2])
            np.testing.assert_allclose(q[:, 0], np.cos(theta / 2), atol=1e-6)
            np.testing.assert_allclose(q[:, 3], np.sin(theta / 2), atol=1e-6)
            np.testing.assert_array_equal(q[:, 1:3], 0)
        # The comparison sees a difference: frame 1 is not the initial state.
        ids0, cols0, _ = checkpoint(tmp_path / "cp0.csv")
        assert not np.array_equal(traj[1].log["particles/world_position"], cols0[:, 0:2])


def test_python_trajectories_equal_the_clis(cli, tmp_path):
    t = tmp_path / "cli.gsd"
    cli("headless", "--scene", PREDATORS, "--boids", 1000, "--seed", 4, "--steps", 6, "--every", 3,
        "--trajectory", t)
    sim = boids.Simulation(scene=PREDATORS, boids=1000, seed=4)
    p = tmp_path / "py.gsd"
    with boids.Trajectory(p) as traj:
        traj.append(sim)
        for _ in range(2):
            sim.step(3)
            traj.append(sim)
        assert traj.frames == 3
    with gsd.hoomd.open(str(t), "r") as a, gsd.hoomd.open(str(p), "r") as b:
        assert len(a) == len(b) == 3
        for fa, fb in zip(a, b):
            assert fa.particles.types == fb.particles.types == ["boid", "predator"]
            assert fa.particles.N == 1003
            np.testing.assert_array_equal(fa.particles.typeid[-3:], 1)
            for name in ["position", "velocity", "orientation", "typeid"]:
                np.testing.assert_array_equal(getattr(fa.particles, name), getattr(fb.particles, name))
            for name in ["particles/id", "particles/hue", "particles/predator_kind"]:
                np.testing.assert_array_equal(fa.log[name], fb.log[name])
    # Appending continues the file.
    with boids.Trajectory(p, append=True) as traj:
        assert traj.frames == 3
        traj.append(sim)
    with gsd.hoomd.open(str(p), "r") as b:
        assert len(b) == 4


def test_init_from_a_frame_resumes_the_run(cli, tmp_path):
    t = tmp_path / "t.gsd"
    cli("headless", "--scene", VICSEK, "--boids", 800, "--seed", 6, "--steps", 20, "--every", 10,
        "--trajectory", t, "--save", tmp_path / "end.csv")
    sim = boids.Simulation(scene=VICSEK, seed=6, init=f"{t}:1")
    assert len(sim) == 800 and sim.step_index == 10
    sim.step(10)
    sim.save(tmp_path / "py.csv")
    assert (tmp_path / "py.csv").read_bytes() == (tmp_path / "end.csv").read_bytes()
    last = boids.Simulation(scene=VICSEK, seed=6, init=t)
    assert last.step_index == 20
    with pytest.raises(ValueError, match=r"t\.gsd has 3 whole frames \(0 \.\.= 2\); there is no frame 7"):
        boids.Simulation(scene=VICSEK, init=f"{t}:7")
    with pytest.raises(ValueError, match="frame 2: its box is 14.142136 × 14.142136 wu but the run's world is 282.8427 × 282.8427 wu"):
        boids.Simulation(init=t)


def test_a_frame_edited_with_gsd_starts_a_run(tmp_path):
    """A file written by the gsd package itself (positions centred, no world_position)."""
    f = gsd.hoomd.Frame()
    f.configuration.box = [200, 100, 1, 0, 0, 0]
    f.configuration.dimensions = 2
    f.configuration.step = 40
    f.particles.N = 3
    f.particles.types = ["boid"]
    f.particles.typeid = [0, 0, 0]
    f.particles.position = [[-99, -49, 0], [0, 0, 0], [99.5, 49.5, 0]]
    f.particles.velocity = [[50, 0, 0], [0, 50, 0], [-50, 0, 0]]
    f.log["particles/hue"] = np.float32([[1, 0], [0, 1], [0.6, 0.8]])
    f.log["particles/hue_velocity"] = np.zeros((3, 2), np.float32)
    p = tmp_path / "made.gsd"
    with gsd.hoomd.open(str(p), "w") as t:
        t.append(f)
    sim = boids.Simulation(init=p, world_width=200, world_height=100)
    assert sim.step_index == 40
    np.testing.assert_array_equal(sim.positions, np.float32([[1, 1], [100, 50], [199.5, 99.5]]))
    np.testing.assert_array_equal(sim.ids, [0, 1, 2])
