"""Parameters: keyword arguments as --set, and the params mapping, both checked by the
parameter table."""

import numpy as np
import pytest

import boids
from conftest import VICSEK


def test_keywords_are_set_keys_applied_over_the_scene():
    sim = boids.Simulation(scene=VICSEK, boids=200, vicsek_eta=0.5, boundary="walls")
    assert sim.params["vicsek_eta"] == 0.5
    assert sim.params["boundary"] == "walls"
    assert sim.params["model"] == "vicsek"
    plain = boids.Simulation(scene=VICSEK, boids=200)
    assert plain.params["vicsek_eta"] == 2.0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"vicsek_eta": 7.0}, "vicsek_eta = 7 is out of range: allowed 0 ..= 6.2831855"),
        ({"vicsek_etta": 1.0}, "unexpected keyword argument \"vicsek_etta\""),
        ({"vicsek_etta": 1.0}, "did you mean `vicsek_eta`"),
        ({"boid": 5}, "did you mean `boids`"),
        ({"max_speed": 50.0}, "max_speed is not used by the vicsek model"),
        ({"boundary": "bouncy"}, "boundary"),
    ],
)
def test_bad_keywords_raise_value_error_with_the_parameters_message(kwargs, message):
    with pytest.raises(ValueError) as e:
        boids.Simulation(scene=VICSEK, boids=100, **kwargs)
    assert message in str(e.value)
    # A keyword argument is not the command line's --set.
    assert "--set" not in str(e.value)


@pytest.mark.parametrize("n", [-1, -(2**70), 2**64])
def test_a_step_count_out_of_range_is_a_value_error(n):
    sim = boids.Simulation(scene=VICSEK, boids=50)
    with pytest.raises(ValueError, match=f"n = {n}: the number of steps is 0"):
        sim.step(n)
    assert sim.step_index == 0


def test_a_keyword_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match="vicsek_eta: expected a number or a name"):
        boids.Simulation(scene=VICSEK, boids=100, vicsek_eta=[1.0])


def test_the_mapping_reads_sets_and_checks():
    sim = boids.Simulation(scene=VICSEK, boids=300, seed=4)
    p = sim.params
    assert p.keys()[0] == "model"
    assert "vicsek_eta" in p and "max_speed" not in p
    assert len(p) == len(p.keys()) == len(list(p))
    assert p.to_dict()["vicsek_speed"] == pytest.approx(0.03)
    assert isinstance(p["max_neighbors"], int)
    assert p.get("nope", 7) == 7
    p["vicsek_eta"] = 3
    assert p["vicsek_eta"] == 3.0
    assert sim.params["vicsek_eta"] == 3.0
    p["vicsek_eta"] = np.float32(1.25)
    assert p["vicsek_eta"] == 1.25
    with pytest.raises(ValueError, match=r"vicsek_eta = -1 is out of range: allowed 0 \.\.= 6\.28"):
        p["vicsek_eta"] = -1
    with pytest.raises(ValueError, match="max_speed is not used by the vicsek model"):
        p["max_speed"] = 1.0
    with pytest.raises(KeyError, match="did you mean `vicsek_eta`"):
        p["vicsek_etaa"] = 1.0
    with pytest.raises(KeyError):
        p["vicsek_etaa"]
    assert p["vicsek_eta"] == 1.25  # unchanged by the refusals


def test_a_bound_moved_by_another_parameter_names_both():
    sim = boids.Simulation(boids=100)
    with pytest.raises(ValueError, match="max_speed = 1: min_speed = "):
        sim.params["max_speed"] = 1


def test_a_parameter_set_changes_the_next_steps():
    a = boids.Simulation(scene=VICSEK, boids=1000, seed=5)
    b = boids.Simulation(scene=VICSEK, boids=1000, seed=5)
    b.params["vicsek_eta"] = 6.0
    a.step(20)
    b.step(20)
    assert not np.array_equal(a.positions, b.positions)
    # Strong noise disorders the flock.
    assert b.measures()["va"] < a.measures()["va"]
