"""The example scripts of examples/python run (small sizes), from any folder."""

import subprocess
import sys

import pytest

from conftest import ROOT

EXAMPLES = ROOT / "examples" / "python"


def run(script, *args, cwd):
    out = subprocess.run([sys.executable, str(EXAMPLES / script), *map(str, args)], cwd=cwd,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_trajectory_example_writes_and_reads_a_gsd_file(tmp_path):
    out = run("trajectory.py", "--out", tmp_path / "f.gsd", "--frames", 3, "--every", 2,
              "--boids", 300, cwd=tmp_path)
    assert "wrote" in out and "3 frames of 300 boids" in out
    assert "step     4  N = 303" in out


def test_the_sweep_example_plots_va_against_eta(tmp_path):
    pytest.importorskip("matplotlib", reason="the sweep example plots with matplotlib")
    out = run("sweep_eta.py", "--boids", 200, "--steps", 40, "--out", tmp_path / "va.png",
              cwd=tmp_path)
    assert out.count("v_a =") == 11
    assert (tmp_path / "va.png").stat().st_size > 1000
