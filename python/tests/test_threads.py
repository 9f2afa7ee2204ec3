"""Stepping releases the interpreter's lock: other Python threads run meanwhile."""

import threading
import time

import boids
from conftest import VICSEK


def test_other_threads_run_while_a_simulation_steps():
    sim = boids.Simulation(scene=VICSEK, boids=5000, seed=1)
    t0 = time.perf_counter()
    sim.step(20)
    per_step = (time.perf_counter() - t0) / 20
    steps = max(20, int(0.6 / per_step))  # about 0.6 s of stepping

    done = threading.Event()
    count = 0

    def stepper():
        sim.step(steps)
        done.set()

    th = threading.Thread(target=stepper)
    th.start()
    while not done.is_set():
        count += 1
    th.join()
    # Holding the lock, the step would leave this loop a few switch intervals (5 ms each) at most.
    assert count > 100_000, count
    assert sim.step_index == 20 + steps
