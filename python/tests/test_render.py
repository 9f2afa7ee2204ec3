"""render(): the app's offscreen picture of the current state, as an RGBA array."""

import numpy as np
import pytest

import boids
from conftest import VICSEK


def test_a_picture_shows_the_flock_where_it_is(gpu):
    sim = boids.Simulation(scene=VICSEK, boids=2000, seed=1)
    img = sim.render(width=320, height=200, msaa=1)
    assert img.shape == (200, 320, 4) and img.dtype == np.uint8
    assert (img[..., 3] == 255).all()
    # Boids are drawn over the background: many colours.
    assert len(np.unique(img.reshape(-1, 4), axis=0)) > 20
    # All boids moved into the left half: the right half of the world is then background only.
    p = sim.positions
    w, h = sim.world
    p[:, 0] = p[:, 0] * 0.4
    sim.set_state(positions=p)
    img2 = sim.render(width=320, height=200, msaa=1)
    # The square world is fitted into the picture's height: columns 60 .. 260 show it.
    right = img2[20:180, 180:250, :3]
    left = img2[20:180, 70:130, :3]
    assert len(np.unique(right.reshape(-1, 3), axis=0)) <= 2
    assert len(np.unique(left.reshape(-1, 3), axis=0)) > 10
    light = sim.render(width=64, height=64, theme="light")
    assert light[..., :3].mean() > img2[..., :3].mean()


def test_a_picture_out_of_range_is_refused(gpu):
    sim = boids.Simulation(boids=10)
    with pytest.raises(ValueError, match=r"width = 0, height = 10: each must be 1 \.\.= 16384 px"):
        sim.render(width=0, height=10)
    with pytest.raises(ValueError, match=r"boid_size = 0 is out of range: allowed 0\.01 \.\.= 10000"):
        sim.render(boid_size=0.0)
