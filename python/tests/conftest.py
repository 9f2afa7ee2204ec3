"""Shared fixtures of the Python tests: the repository's paths, the `boids` binary of the same
build (for comparisons with the command line), and the GPU (skipped without an adapter, failed
instead under BOIDS_REQUIRE_GPU=1, as the Rust tests do)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import boids

ROOT = Path(__file__).resolve().parents[2]
VICSEK = ROOT / "scenes" / "vicsek.toml"
PREDATORS = ROOT / "scenes" / "predators.toml"


def _binary() -> Path:
    if os.environ.get("BOIDS_BIN"):
        return Path(os.environ["BOIDS_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "release" / "boids"


@pytest.fixture(scope="session")
def cli():
    """Runs the `boids` command line (target/release/boids, or $BOIDS_BIN) and returns its
    stdout; a failure shows its stderr."""
    exe = _binary()
    if not exe.exists():
        pytest.fail(f"{exe} is missing: build it with `cargo build --release` (or set BOIDS_BIN)")

    def run(*args, cwd=None):
        out = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, cwd=cwd)
        assert out.returncode == 0, f"boids {args} failed:\n{out.stderr}"
        return out.stdout

    return run


@pytest.fixture(scope="session")
def gpu():
    """The GPU backend is available: a test using this fixture is skipped without an adapter, and
    fails instead when BOIDS_REQUIRE_GPU=1 (CI: lavapipe must be there)."""
    try:
        boids.Simulation(backend="gpu", boids=16)
    except RuntimeError as e:
        if os.environ.get("BOIDS_REQUIRE_GPU") == "1":
            pytest.fail(f"BOIDS_REQUIRE_GPU=1 but no GPU adapter: {e}")
        print(f"SKIPPED (no GPU adapter): {e}", file=sys.stderr)
        pytest.skip(f"no GPU adapter: {e}")
    return True
