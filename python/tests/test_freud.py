"""freud's mean-squared displacement on `boids headless --trajectory` files exactly as written:
positions and images from the file, rows paired across frames as freud pairs them (row i of every
frame), the box inferred by freud from the file's box. The law is known for the Vicsek gas at
eta = 2 pi (a random walk of step v0: MSD(t) = t v0^2, t in steps); for an ordered flock the curve
is compared with one computed independently, by id, from the states of every step."""

import freud
import gsd.hoomd
import numpy as np
import pytest

import boids
from conftest import VICSEK

TWO_PI = "6.2831855"  # the top of vicsek_eta's range: 2 pi rounded to float32
V0 = 0.03  # the Vicsek scene's speed (wu per step)


def frames(path):
    """Box, positions (F, N, 3) and images (F, N, 3) of a GSD file, rows as written."""
    with gsd.hoomd.open(str(path), "r") as t:
        box = freud.box.Box.from_box(t[0].configuration.box)
        pos = np.stack([f.particles.position for f in t])
        img = np.stack([f.particles.image for f in t])
        steps = [int(f.configuration.step) for f in t]
    return box, pos, img, steps


def window_msd(unwrapped):
    """MSD at every lag m of frames (F, N, d), averaged over all time origins and particles, as
    freud's window mode defines it (computed directly, without FFT)."""
    f = len(unwrapped)
    return np.array(
        [0.0]
        + [np.mean(np.sum((unwrapped[m:] - unwrapped[:-m]) ** 2, axis=-1)) for m in range(1, f)]
    )


def direct_msd(unwrapped):
    """MSD of every frame from frame 0, averaged over particles: freud's direct mode."""
    return np.mean(np.sum((unwrapped - unwrapped[0]) ** 2, axis=-1), axis=1)


def test_the_vicsek_gas_is_a_random_walk_of_step_v0(cli, tmp_path):
    t = tmp_path / "gas.gsd"
    cli("headless", "--scene", VICSEK, "--boids", 4000, "--seed", 3, "--set", f"vicsek_eta={TWO_PI}",
        "--steps", 40, "--every", 1, "--trajectory", t)
    box, pos, img, steps = frames(t)
    assert box.dimensions == 2 and steps == list(range(41))
    msd = freud.msd.MSD(box, mode="window").compute(pos, img).msd
    lags = np.arange(1, 21)
    # 4000 walkers, each |d|^2 of relative spread ~1: a few per cent at the longest lag.
    np.testing.assert_allclose(msd[lags], lags * V0**2, rtol=0.04)
    # The comparison sees a planted difference: a walk of step 1.1 v0.
    assert not np.allclose(msd[lags] * 1.21, lags * V0**2, rtol=0.04)


@pytest.mark.parametrize("every", [1, 300])
def test_an_ordered_flocks_msd_is_the_one_computed_by_id(cli, tmp_path, every):
    n, seed, steps = 1000, 5, 3000 if every > 1 else 300
    t = tmp_path / "flock.gsd"
    args = ["--boids", n, "--seed", seed, "--set", "vicsek_eta=0.3"]
    cli("headless", "--scene", VICSEK, *args, "--steps", steps, "--every", every, "--trajectory", t)
    box, pos, img, got_steps = frames(t)
    assert got_steps == list(range(0, steps + 1, every))
    w, h = box.Lx, box.Ly
    if every > 1:
        # Between two frames an ordered boid moves about every * v0 > half the box: minimum-image
        # unwrapping between frames cannot work here, the file's images must.
        assert every * V0 > max(w, h) / 2
    got = freud.msd.MSD(box, mode="window").compute(pos, img).msd
    got_direct = freud.msd.MSD(box, mode="direct").compute(pos, img).msd

    # The reference: the same run in the Python module (bit for bit the command line's), its
    # state read at every step and paired by id, unwrapped by minimum image between consecutive
    # steps (a step moves v0 = 0.03 wu, far less than half the box).
    sim = boids.Simulation(scene=VICSEK, boids=n, seed=seed, vicsek_eta=0.3)
    size = np.float64([w, h])

    def by_id():
        order = np.argsort(sim.ids)
        return sim.positions[order].astype(np.float64)

    prev = by_id()
    path = prev.copy()
    ref_frames = [path.copy()]
    for s in range(1, steps + 1):
        sim.step()
        now = by_id()
        d = now - prev
        path += d - size * np.round(d / size)
        prev = now
        if s % every == 0:
            ref_frames.append(path.copy())
    ref_frames = np.stack(ref_frames)
    # freud's direct mode (displacements from frame 0) subtracts nothing large: within 1e-4.
    ref_direct = direct_msd(ref_frames)
    np.testing.assert_allclose(got_direct[1:], ref_direct[1:], rtol=1e-4)
    # Its window mode sums by FFT in float32, |r|^2 - 2 r.r' + |r'|^2: rounding of 1e-6 |r|^2.
    ref = window_msd(ref_frames)
    rounding = 1e-6 * np.mean(np.sum(ref_frames**2, axis=-1))
    np.testing.assert_allclose(got, ref, rtol=1e-3, atol=rounding)
    # Ordered: at the first lag the flock moves ballistically, nearly v0 per step.
    assert got[1] > 0.8 * (every * V0) ** 2
    # The comparison sees a planted difference: the file's positions without its images.
    wrapped = freud.msd.MSD(box, mode="window").compute(pos).msd
    assert not np.allclose(wrapped[1:], ref[1:], rtol=0.5)
