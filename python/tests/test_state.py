"""The state as numpy arrays: shapes, dtypes, copies, and set_state."""

import numpy as np
import pytest

import boids
from conftest import PREDATORS, VICSEK


@pytest.fixture
def sim():
    return boids.Simulation(scene=VICSEK, boids=500, seed=1)


def test_arrays_have_the_documented_shapes_and_dtypes(sim):
    n = len(sim)
    assert n == 500
    for name in ["positions", "velocities", "hues", "hue_velocities"]:
        a = getattr(sim, name)
        assert isinstance(a, np.ndarray), name
        assert a.shape == (n, 2), name
        assert a.dtype == np.float32, name
    assert sim.ids.shape == (n,)
    assert sim.ids.dtype == np.uint32
    assert sorted(sim.ids.tolist()) == list(range(n))
    state = sim.state()
    assert sim.images.shape == (n, 2)
    assert sim.images.dtype == np.int32
    assert set(state) == {"positions", "velocities", "hues", "hue_velocities", "ids", "images"}
    np.testing.assert_array_equal(state["positions"], sim.positions)
    np.testing.assert_array_equal(state["ids"], sim.ids)


def test_arrays_are_copies_and_inside_the_world(sim):
    w, h = sim.world
    p = sim.positions
    assert (p[:, 0] >= 0).all() and (p[:, 0] < w).all()
    assert (p[:, 1] >= 0).all() and (p[:, 1] < h).all()
    np.testing.assert_allclose(np.hypot(*sim.hues.T), 1.0, rtol=1e-5)
    p[:] = 0.0
    assert not (sim.positions == 0.0).all()


def test_steps_move_the_flock_and_count(sim):
    before = sim.positions
    assert sim.step_index == 0
    sim.step()
    sim.step(4)
    sim.step(0)
    assert sim.step_index == 5
    after = sim.positions
    assert not np.array_equal(before, after)
    # Vicsek particles move at v0 = 0.03 wu per step.
    np.testing.assert_allclose(np.hypot(*sim.velocities.T), 0.03, rtol=1e-4)


def test_set_state_replaces_the_columns_given(sim):
    ids = sim.ids
    p = sim.positions
    v = sim.velocities
    p[0] = [1.5, 2.5]
    v[0] = [0.0, 0.03]
    sim.set_state(positions=p, velocities=v.astype(np.float64))
    np.testing.assert_array_equal(sim.positions, p)
    np.testing.assert_array_equal(sim.velocities, v)
    np.testing.assert_array_equal(sim.ids, ids)
    # Hue vectors are normalised; new ids are taken.
    sim.set_state(hues=np.tile([3.0, 4.0], (500, 1)), ids=ids + 1000)
    np.testing.assert_allclose(sim.hues, np.tile([0.6, 0.8], (500, 1)), rtol=1e-6)
    assert sim.ids.min() == 1000
    # Image counts are taken as given and counted on by the steps.
    img = np.zeros((500, 2), dtype=np.int64)
    img[:, 0] = np.arange(500) - 250
    img[7] = [2**31 - 1, -(2**31)]
    sim.set_state(images=img)
    np.testing.assert_array_equal(sim.images, img)


def test_images_count_the_crossings_of_the_box(sim):
    """Over many steps, positions + images * world moves by exactly the sum of the steps taken:
    the unwrapped displacement equals the summed velocities (the Vicsek model moves by v each
    step), which a wrapped position alone does not."""
    w, h = sim.world
    ids0 = sim.ids
    start = sim.positions[np.argsort(ids0)].astype(np.float64)
    moved = np.zeros_like(start)
    for _ in range(400):
        sim.step()
        order = np.argsort(sim.ids)
        moved += sim.velocities[order]
    order = np.argsort(sim.ids)
    unwrapped = sim.positions[order] + sim.images[order] * np.float64([w, h])
    assert np.abs(sim.images).max() >= 1, "some boid crossed the box in 400 steps"
    np.testing.assert_allclose(unwrapped - start, moved, atol=1e-3)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"positions": np.zeros((499, 2))}, "positions: expected an array of shape (500, 2), got [499, 2]"),
        ({"positions": np.zeros(500)}, "positions: expected an array of shape (500, 2)"),
        ({"positions": np.full((500, 2), 40.0)}, "boid 0 at (40, 40) is outside the world [0, 11.18034)"),
        ({"velocities": np.full((500, 2), np.nan)}, "non-finite value"),
        ({"hues": np.zeros((500, 2))}, "hue vector (0, 0)"),
        ({"ids": np.zeros(500, dtype=np.uint32)}, "id 0 appears twice"),
        ({"ids": -np.ones(500, dtype=np.int64)}, "ids: -1 is outside 0 ..= 4294967295"),
        ({"images": np.zeros((500, 3), dtype=np.int32)}, "images: expected an array of shape (500, 2)"),
        ({"images": np.full((500, 2), 2**31)}, "images: 2147483648 is outside"),
        ({"images": np.zeros((500, 2))}, "images: expected whole numbers"),
        ({"positions": [["a", "b"]] * 500}, "positions: not an array of numbers"),
    ],
)
def test_set_state_refuses_bad_states_and_keeps_the_old_one(sim, kwargs, message):
    before = sim.state()
    with pytest.raises(ValueError) as e:
        sim.set_state(**kwargs)
    assert message in str(e.value)
    after = sim.state()
    for k in before:
        np.testing.assert_array_equal(before[k], after[k])


def test_steps_in_one_call_are_the_same_steps_one_at_a_time():
    # The same state and measures, the mean neighbour count included.
    a = boids.Simulation(boids=600, seed=9)
    b = boids.Simulation(boids=600, seed=9)
    a.step(4)
    for _ in range(4):
        b.step()
    np.testing.assert_array_equal(a.positions, b.positions)
    assert a.measures()["mean_neighbors"] > 0
    assert a.measures() == b.measures()


def test_measures_are_every_measure_of_the_table(sim):
    m = sim.measures()
    assert list(m) == [
        "polarization", "milling", "mean_speed", "mean_neighbors", "va", "nematic", "catches",
        "catches_total", "phi2", "phi4", "binder", "susceptibility", "tau_int", "flocks", "largest_flock",
        "flocked_fraction", "hue_coherence", "flock_polarization",
    ]
    assert m["mean_neighbors"] is None  # counted by a step
    sim.step()
    m = sim.measures(flocks=True)
    assert 0.0 <= m["va"] <= 1.0
    assert m["mean_speed"] == pytest.approx(0.03, rel=1e-4)
    assert m["mean_neighbors"] > 0
    assert m["catches"] is None  # no predators
    assert m["phi2"] is None and m["binder"] is None  # statistics of a series
    assert m["flocks"] >= 0 and 0.0 <= m["flocked_fraction"] <= 1.0
    # v_a is |mean velocity| / v0: computed here from the arrays.
    v = sim.velocities.astype(np.float64)
    assert m["va"] == pytest.approx(np.hypot(*v.mean(axis=0)) / 0.03, rel=1e-4)


def test_predators_count_catches():
    sim = boids.Simulation(scene=str(PREDATORS), boids=2000, seed=2)
    sim.step(3)
    m = sim.measures()
    assert m["catches"] is not None and m["catches_total"] is not None
