"""The module and the command line agree: the same scene, seed and steps give the same checkpoint,
byte for byte; either resumes the other's."""

import numpy as np

import boids
from conftest import PREDATORS, VICSEK


def test_a_checkpoint_equals_the_clis_for_the_same_scene_seed_and_steps(cli, tmp_path):
    py = tmp_path / "py.csv"
    sim = boids.Simulation(scene=VICSEK, backend="cpu", seed=1, boids=2000, vicsek_eta=2.0)
    sim.step(25)
    sim.save(py)
    cl = tmp_path / "cli.csv"
    cli("headless", "--scene", VICSEK, "--seed", 1, "--boids", 2000, "--set", "vicsek_eta=2.0",
        "--steps", 25, "--save", cl)
    assert py.read_bytes() == cl.read_bytes()
    # The comparison sees a difference: another seed gives another file.
    other = tmp_path / "other.csv"
    cli("headless", "--scene", VICSEK, "--seed", 2, "--boids", 2000, "--steps", 25, "--save", other)
    assert other.read_bytes() != cl.read_bytes()


def test_predators_and_their_catches_match_too(cli, tmp_path):
    py = tmp_path / "py.csv"
    sim = boids.Simulation(scene=PREDATORS, seed=3, boids=3000)
    sim.step(30)
    sim.save(py)
    cl = tmp_path / "cli.csv"
    cli("headless", "--scene", PREDATORS, "--seed", 3, "--boids", 3000, "--steps", 30, "--save", cl)
    assert py.read_bytes() == cl.read_bytes()


def test_each_resumes_the_others_checkpoint(cli, tmp_path):
    start = tmp_path / "start.csv"
    cli("headless", "--scene", VICSEK, "--boids", 1000, "--steps", 10, "--save", start)
    sim = boids.Simulation(init=start)
    assert sim.step_index == 10 and sim.params["model"] == "vicsek"
    sim.step(10)
    sim.save(tmp_path / "py.csv")
    cli("headless", "--init", start, "--steps", 10, "--save", tmp_path / "cli.csv")
    assert (tmp_path / "py.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    again = boids.Simulation(init=tmp_path / "py.csv")
    np.testing.assert_array_equal(again.positions, sim.positions)
    assert again.step_index == 20
