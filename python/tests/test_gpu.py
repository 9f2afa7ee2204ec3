"""backend="gpu" works wherever the command line's does (lavapipe in CI), and agrees with the CPU
within the stated tolerance after a step."""

import numpy as np

import boids
from conftest import VICSEK


def test_the_gpu_backend_steps_and_reads_back(gpu):
    sim = boids.Simulation(scene=VICSEK, backend="gpu", boids=2000, seed=3)
    assert sim.backend == "gpu"
    sim.step(5)
    assert sim.step_index == 5
    assert sim.positions.shape == (2000, 2) and sim.positions.dtype == np.float32
    m = sim.measures()
    assert 0.0 <= m["va"] <= 1.0 and m["mean_neighbors"] > 0


def test_one_gpu_step_is_the_cpu_step_within_1e_5(gpu):
    g = boids.Simulation(scene=VICSEK, backend="gpu", boids=1000, seed=8)
    c = boids.Simulation(scene=VICSEK, backend="cpu", boids=1000, seed=8)
    g.step()
    c.step()

    def by_id(sim):
        order = np.argsort(sim.ids)
        return sim.positions[order], sim.velocities[order]

    (gp, gv), (cp, cv) = by_id(g), by_id(c)
    w, _ = c.world
    d = np.abs(gp - cp)
    d = np.minimum(d, w - d)  # wrapped world
    assert d.max() <= 1e-5 * w
    assert np.abs(gv - cv).max() <= 1e-5 * 0.03 * 10
    # A planted difference is seen: one more CPU step.
    c.step()
    _, cv2 = by_id(c)
    assert np.abs(gv - cv2).max() > 1e-5 * 0.03 * 10


def test_gpu_params_and_set_state(gpu):
    sim = boids.Simulation(scene=VICSEK, backend="gpu", boids=500)
    sim.params["vicsek_eta"] = 0.0
    p = sim.positions
    p[:] = [5.0, 5.0]
    sim.set_state(positions=p)
    np.testing.assert_array_equal(sim.positions, p)
    sim.step()
    # Noise-free particles all at one point align at once.
    assert sim.measures()["va"] > 0.99
