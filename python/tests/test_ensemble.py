"""boids.Ensemble: every replica is the run made alone (boids.Simulation with its seed and
parameters) bit for bit, on the GPU (one ensemble) and on the CPU (one backend per replica); its
measures are arrays of shape (R, n); bad arguments are refused with the key, replica and range."""

import numpy as np
import pytest

import boids
from conftest import PREDATORS, VICSEK


def alone(backend, seed, eta, steps):
    sim = boids.Simulation(scene=VICSEK, backend=backend, boids=300, seed=seed, vicsek_eta=eta)
    sim.step(steps)
    order = np.argsort(sim.ids)
    return sim.positions[order], sim.measures()


def by_id(ens, r):
    order = np.argsort(ens.ids(r))
    return ens.positions(r)[order]


@pytest.mark.parametrize("backend", ["gpu", "cpu"])
def test_each_replica_is_its_lone_run(backend, request):
    if backend == "gpu":
        request.getfixturevalue("gpu")
    etas = np.linspace(0.3, 3.0, 5)
    ens = boids.Ensemble(5, scene=VICSEK, backend=backend, boids=300, seed=11,
                         params={"vicsek_eta": etas})
    assert len(ens) == 5 and ens.backend == backend
    run = ens.run(20)
    assert run["va"].shape == (5, 20) and run["va"].dtype == np.float64
    last = ens.measures()
    assert last["va"].shape == (5,)
    for r, eta in enumerate(etas):
        pos, m = alone(backend, 11 + r, float(eta), 20)
        assert np.array_equal(by_id(ens, r), pos), f"replica {r}"
        assert last["va"][r] == m["va"], f"replica {r}"
    # A replica is not its neighbour's run: the comparison can fail.
    pos, _ = alone(backend, 12, float(etas[0]), 20)
    assert not np.array_equal(by_id(ens, 0), pos)


def test_predators_catch_in_each_replica_as_alone(gpu):
    ens = boids.Ensemble(3, scene=PREDATORS, backend="gpu", boids=500, seed=4)
    ens.step(30)
    caught = ens.measures()["catches_total"]
    for r in range(3):
        sim = boids.Simulation(scene=PREDATORS, backend="gpu", boids=500, seed=4 + r)
        sim.step(30)
        assert caught[r] == sim.measures()["catches_total"]
    assert caught.sum() > 0, "no boid caught: the test does not reach the predators"


def test_bad_arguments_name_the_key_and_the_range():
    with pytest.raises(ValueError, match=r"3 values for 4 replicas"):
        boids.Ensemble(4, scene=VICSEK, backend="cpu", boids=100,
                       params={"vicsek_eta": [0.1, 0.2, 0.3]})
    with pytest.raises(ValueError, match=r"replica 2 \(vicsek_eta=9.0\): .*vicsek_eta = 9"):
        boids.Ensemble(3, scene=VICSEK, backend="cpu", boids=100,
                       params={"vicsek_eta": [0.1, 0.2, 9.0]})
    with pytest.raises(ValueError, match=r"replicas = 65: allowed 1 ..= 64"):
        boids.Ensemble(65, backend="cpu")
    # Out of any integer type: the same ValueError, naming the argument.
    with pytest.raises(ValueError, match=r"replicas = -1: allowed 1 ..= 64"):
        boids.Ensemble(-1, backend="cpu")
    with pytest.raises(ValueError, match=r"replicas = 1180591620717411303424: allowed"):
        boids.Ensemble(2**70, backend="cpu")
    for seed in (-1, 2**32):
        with pytest.raises(ValueError, match=rf"seed = {seed}: allowed 0 ..= 4294967295"):
            boids.Ensemble(2, backend="cpu", seed=seed)
        with pytest.raises(ValueError, match=rf"seed = {seed}: allowed 0 ..= 4294967295"):
            boids.Simulation(backend="cpu", seed=seed)
    # One value for all (or R equal values) is what the replicas share: no replica named.
    for shared_eta in (9.0, [9.0, 9.0]):
        with pytest.raises(ValueError) as shared:
            boids.Ensemble(2, scene=VICSEK, backend="cpu", boids=100,
                           params={"vicsek_eta": shared_eta})
        assert "vicsek_eta = 9" in str(shared.value) and "replica" not in str(shared.value)
    with pytest.raises(ValueError) as unused:
        boids.Ensemble(2, scene=VICSEK, backend="cpu", boids=100,
                       params={"alignment_weight": [1, 2]})
    assert "alignment_weight is not used by the vicsek model" in str(unused.value)
    assert "replica" not in str(unused.value)
    with pytest.raises(ValueError, match=r'params\["model"\]: .*fishy'):
        boids.Ensemble(2, scene=VICSEK, backend="cpu", params={"model": ["vicsek", "fishy"]})
    for odd in (b"walls", {"a": 1}, {1, 2}):
        with pytest.raises(TypeError, match=r'params\["boundary"\]: expected a number, a name'):
            boids.Ensemble(2, scene=VICSEK, backend="cpu", params={"boundary": odd})
    # numpy's bools are bools, refused for a number as Python's are.
    for flags in ([True, False], np.array([True, False])):
        with pytest.raises(ValueError, match=r"vicsek_eta"):
            boids.Ensemble(2, scene=VICSEK, backend="cpu", params={"vicsek_eta": flags})
    with pytest.raises(ValueError, match=r"backend"):
        boids.Ensemble(2, backend="cpu-naive")
    with pytest.raises(ValueError, match=r"params\[\"neighborhood\"\]: metric and topological differ"):
        boids.Ensemble(2, scene=VICSEK, backend="cpu", boids=100,
                       params={"neighborhood": ["metric", "topological"]})
    # Named before any replica is resolved (replica 1 as boids would refuse vicsek_eta).
    with pytest.raises(ValueError, match=r"params\[\"model\"\]: vicsek and boids differ"):
        boids.Ensemble(2, scene=VICSEK, backend="cpu", boids=100,
                       params={"model": ["vicsek", "boids"]})
    # A split the names do not show (topological k past 8 is a search of its own).
    with pytest.raises(ValueError, match=r"replica 1 needs other pipelines .*topological_k = 12"):
        boids.Ensemble(2, scene=VICSEK, backend="cpu", boids=100, neighborhood="topological",
                       params={"topological_k": [6, 12]})
    with pytest.raises(ValueError, match=r'params: "vicsek_etta" is not a parameter.*vicsek_eta'):
        boids.Ensemble(2, scene=VICSEK, backend="cpu", params={"vicsek_etta": [0.1, 0.2]})
    with pytest.raises(ValueError, match=r"vicsek_eta: given both as a keyword and in params"):
        boids.Ensemble(2, scene=VICSEK, backend="cpu", vicsek_eta=0.5,
                       params={"vicsek_eta": [0.1, 0.2]})
    # What every replica shares is the ensemble's error, as Simulation's: no replica named.
    with pytest.raises(ValueError) as shared:
        boids.Ensemble(2, scene=VICSEK, backend="cpu", boids=100, vicsek_eta=9.0)
    assert "vicsek_eta = 9" in str(shared.value) and "replica" not in str(shared.value)
    with pytest.raises(ValueError, match=r'Ensemble\(\) got an unexpected keyword argument "replica".*did you mean `replicas`'):
        boids.Ensemble(2, backend="cpu", replica=3)
    ens = boids.Ensemble(2, scene=VICSEK, backend="cpu", boids=100)
    with pytest.raises(IndexError, match=r"replica 2: this ensemble holds 2"):
        ens.positions(2)
    with pytest.raises(IndexError, match=r"replica -3: this ensemble holds 2"):
        ens.positions(-3)
    # From the end, as a Python sequence.
    assert np.array_equal(ens.positions(-1), ens.positions(1))
    assert not np.array_equal(ens.positions(-1), ens.positions(0))
    # Arrays that cannot be held: refused before a step is run (10⁹ steps: 268 GiB; 4·10⁹ past
    # any reservation), not left to the system to kill the process.
    with pytest.raises(MemoryError, match=r"run\(1000000000\): 2 replicas .* need 268.2 GiB"):
        ens.run(10**9)
    with pytest.raises(MemoryError, match=r"run\(4000000000\): 2 replicas"):
        ens.run(4_000_000_000)
    for n in (-1, 2**32):
        with pytest.raises(ValueError, match=rf"n = {n}: allowed 0 ..= 4294967295"):
            ens.run(n)


@pytest.mark.parametrize("backend", ["gpu", "cpu"])
def test_measured_runs_carry_the_catches(backend, request):
    if backend == "gpu":
        request.getfixturevalue("gpu")
    ens = boids.Ensemble(2, scene=PREDATORS, backend=backend, boids=500, seed=4)
    run = ens.run(30)
    last = ens.measures()
    assert np.array_equal(run["catches_total"][:, -1], last["catches_total"])
    assert not np.isnan(run["catches"]).any()
    assert run["catches_total"][:, -1].sum() > 0, "no boid caught: the test does not reach them"
    # Without predators a replica has no catches: NaN, as the other measures it has not.
    plain = boids.Ensemble(2, scene=VICSEK, backend=backend, boids=100)
    assert np.isnan(plain.run(2)["catches"]).all()
    assert np.isnan(plain.measures()["catches_total"]).all()


def test_a_numpy_float_is_a_parameter_value():
    # numpy's float64 is a float whose repr is np.float64(…): read by value.
    sim = boids.Simulation(scene=VICSEK, backend="cpu", boids=100, vicsek_eta=np.float64(0.5))
    assert sim.params["vicsek_eta"] == 0.5


def test_numpy_integers_stay_whole():
    # numpy's int64 (arange, an int array) is a whole number, as topological_k needs.
    sim = boids.Simulation(scene=VICSEK, backend="cpu", boids=100, neighborhood="topological",
                           topological_k=np.int64(5))
    assert sim.params["topological_k"] == 5
    ens = boids.Ensemble(3, scene=VICSEK, backend="cpu", boids=100, neighborhood="topological",
                         params={"topological_k": np.arange(4, 7)})
    ens.step(2)
    for r, k in enumerate(range(4, 7)):
        sim = boids.Simulation(scene=VICSEK, backend="cpu", boids=100, seed=ens_seed(r),
                               neighborhood="topological", topological_k=k)
        sim.step(2)
        assert np.array_equal(by_id(ens, r), sim.positions[np.argsort(sim.ids)]), f"replica {r}"


def ens_seed(r):
    """The seed of replica r of an ensemble without a seed of its own: the scene's + r."""
    return boids.Simulation(scene=VICSEK, backend="cpu", boids=100).seed + r
