"""Errors become Python exceptions with the simulator's message: ValueError for bad input,
OSError for files, RuntimeError for the backend; never an abort."""

import pickle

import pytest

import boids
from conftest import VICSEK


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match='backend = "quantum": one of "cpu", "gpu", "cpu-naive"'):
        boids.Simulation(backend="quantum")
    with pytest.raises(ValueError, match='boids: "many" is not a boid count'):
        boids.Simulation(boids="many")
    with pytest.raises(ValueError, match="a count is 1 or more"):
        boids.Simulation(boids=-3)
    with pytest.raises(ValueError, match=r"boids = 0 is out of range: allowed 1 \.\.= "):
        boids.Simulation(boids=0)
    assert len(boids.Simulation(boids="1k")) == 1000
    # A step count out of range is a ValueError naming it, not a bare OverflowError.
    with pytest.raises(ValueError, match="n = -1: the number of steps is 0"):
        boids.Simulation(boids=10).step(-1)
    with pytest.raises(ValueError, match=r"seed = -1: allowed 0 \.\.= 4294967295"):
        boids.Simulation(seed=-1)
    # keep_world keeps a scene's fixed world: without a scene it is refused, not ignored.
    for make in (boids.Simulation, lambda **k: boids.Ensemble(2, **k)):
        with pytest.raises(ValueError, match="keep_world .*no scene was given"):
            make(boids=10, keep_world=True)


def test_files_that_cannot_be_read_are_os_errors(tmp_path):
    with pytest.raises(OSError, match="cannot read scene file .*nope.toml"):
        boids.Simulation(scene=tmp_path / "nope.toml")
    with pytest.raises(OSError, match="nope.csv"):
        boids.Simulation(init=tmp_path / "nope.csv")
    with pytest.raises(OSError, match="nope.gsd"):
        boids.Simulation(init=tmp_path / "nope.gsd")
    with pytest.raises(OSError, match="cannot write state .*s.csv: .*does not exist"):
        boids.Simulation(boids=10).save(tmp_path / "no" / "dir" / "s.csv")


def test_files_with_bad_content_name_the_file_and_line(tmp_path):
    scene = tmp_path / "s.toml"
    scene.write_text("boids = 10\n[params]\nmax_speed = -5\n")
    with pytest.raises(ValueError, match=r"scene file .*s\.toml, line 3"):
        boids.Simulation(scene=scene)
    state = tmp_path / "s.csv"
    state.write_text("id,x,y,vx,vy,hx,hy,hvx,hvy\n0,1,1,1,0,0,0,0,0\n")
    with pytest.raises(ValueError, match=r"s\.csv, line 2: hue vector"):
        boids.Simulation(init=state)
    not_gsd = tmp_path / "t.gsd"
    not_gsd.write_text("hello")
    with pytest.raises(ValueError, match="is not a GSD file"):
        boids.Simulation(init=not_gsd)


def test_a_picture_out_of_range_is_a_value_error():
    sim = boids.Simulation(scene=VICSEK, boids=100)
    with pytest.raises(ValueError, match='theme = "pink"'):
        sim.render(theme="pink")


def test_simulations_are_not_pickled():
    with pytest.raises(RuntimeError, match="cannot be pickled"):
        pickle.dumps(boids.Simulation(boids=10))


def test_help_documents_every_argument():
    doc = boids.Simulation.__doc__
    for arg in ["scene", "backend", "seed", "boids", "init", "keep_world", "any other keyword"]:
        assert f"- {arg}" in doc, arg
    for method in ["step", "set_state", "measures", "save", "render", "state"]:
        assert getattr(boids.Simulation, method).__doc__, method
    assert "ValueError" in boids.Params.__doc__
