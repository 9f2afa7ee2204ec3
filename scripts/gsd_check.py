#!/usr/bin/env python3
"""Cross-checks boids' GSD trajectories (src/formats/gsd.rs on crates/gsd) against the reference `gsd` package.

Needs Python 3 with the `gsd` and `numpy` packages (e.g. `python3 -m venv /tmp/gsdvenv &&
/tmp/gsdvenv/bin/pip install gsd numpy`).

    gsd_check.py fixture OUT.gsd          write the reference fixture with gsd.hoomd
    gsd_check.py check FILE.gsd EXPECT.json
                                          check every chunk of a file boids wrote against the
                                          boids and predators in EXPECT.json (written by the
                                          Rust test `python_cross_check` in tests/it/gsd.rs)

`check` exits 1 and prints one FAIL line per difference; 0 and a summary when all agree.

Under pytest (`pytest scripts/gsd_check.py`): the committed fixture
tests/data/gsd_hoomd_fixture.gsd holds what `fixture` writes, and — when BOIDS_GSD_FILE and
BOIDS_GSD_EXPECT name a file boids wrote and its JSON — that file passes `check`.
"""

import json
import os
import sys
from pathlib import Path

import numpy as np

import gsd.fl
import gsd.hoomd

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / 'tests' / 'data' / 'gsd_hoomd_fixture.gsd'

# The fixture: a world of 40 × 30 (box Lz = 0, as HOOMD's 2D boxes), three frames.
FIXTURE_BOX = [40.0, 30.0, 0.0, 0.0, 0.0, 0.0]
FIXTURE_FRAMES = [
    # Frame 0: four boids.
    {
        'step': 0,
        'types': ['boid'],
        'typeid': [0, 0, 0, 0],
        'position': [[-15, -10, 0], [-5, 0, 0], [5, 5, 0], [15, 14.5, 0]],
        'velocity': [[1, 0, 0], [0, 2, 0], [-3, 0, 0], [0.5, -0.5, 0]],
        'log': {
            'particles/id': np.array([10, 11, 12, 13], dtype=np.uint32),
            'particles/hue': np.array([[1, 0], [0, 1], [-1, 0], [0.6, 0.8]], dtype=np.float32),
            'particles/hue_velocity': np.array(
                [[0, 0.5], [-0.25, 0], [0, -1], [0.125, 0.25]], dtype=np.float32
            ),
            # gsd.hoomd cannot read a frame that lacks a log chunk which frame 0 lacks too but an
            # earlier frame has: a log chunk used at all must be in frame 0.
            'particles/predator_kind': np.zeros(4, dtype=np.uint8),
        },
    },
    # Frame 1: a hunting predator among the boids (third particle); ids written as int64 and hues
    # as float64, as a script that does not pick dtypes writes them.
    {
        'step': 10,
        'types': ['boid', 'predator'],
        'typeid': [0, 0, 1, 0, 0],
        'position': [[-14, -9, 0], [-4, 1, 0], [0, 0, 0], [4, 6, 0], [-20, -15, 0]],
        'velocity': [[1, 0, 0], [0, 2, 0], [4, 3, 0], [-3, 0, 0], [0.5, -0.5, 0]],
        'log': {
            'particles/id': np.array([10, 11, 4294967295, 12, 13], dtype=np.int64),
            'particles/hue': np.array(
                [[1, 0], [0, 1], [0, 0], [-1, 0], [0.6, 0.8]], dtype=np.float64
            ),
            'particles/hue_velocity': np.array(
                [[0, 0.5], [-0.25, 0], [0, 0], [0, -1], [0.125, 0.25]], dtype=np.float32
            ),
            'particles/predator_kind': np.array([0, 0, 1, 0, 0], dtype=np.uint8),
        },
    },
    # Frame 2: four boids again with frame 0's types, type ids and velocities, which gsd.hoomd
    # therefore leaves out (readers take them from frame 0); no predator_kind log either (frame
    # 0's stands in).
    {
        'step': 20,
        'types': ['boid'],
        'typeid': [0, 0, 0, 0],
        'position': [[-13, -8, 0], [-3, 2, 0], [7, 7, 0], [19.75, -15, 0]],
        'velocity': [[1, 0, 0], [0, 2, 0], [-3, 0, 0], [0.5, -0.5, 0]],
        'log': {
            'particles/id': np.array([10, 11, 12, 13], dtype=np.uint32),
            'particles/hue': np.array([[0, 1], [1, 0], [0.6, 0.8], [-1, 0]], dtype=np.float32),
            'particles/hue_velocity': np.array(
                [[0.5, 0], [0, -0.25], [-1, 0], [0.25, 0.125]], dtype=np.float32
            ),
        },
    },
]


def heading_quaternion(velocity):
    """(cos θ/2, 0, 0, sin θ/2) of θ = atan2(vy, vx), in float64; (1, 0, 0, 0) at rest."""
    v = np.asarray(velocity, dtype=np.float64)
    half = np.arctan2(v[:, 1], v[:, 0]) / 2
    half[(v[:, 0] == 0) & (v[:, 1] == 0)] = 0
    z = np.zeros_like(half)
    return np.stack([np.cos(half), z, z, np.sin(half)], axis=1)


def fixture_frames():
    """The fixture's frames as gsd.hoomd.Frame objects."""
    frames = []
    for spec in FIXTURE_FRAMES:
        f = gsd.hoomd.Frame()
        f.configuration.step = spec['step']
        f.configuration.box = FIXTURE_BOX
        f.configuration.dimensions = 2
        f.particles.N = len(spec['typeid'])
        f.particles.types = spec['types']
        f.particles.typeid = spec['typeid']
        f.particles.position = spec['position']
        f.particles.velocity = spec['velocity']
        f.particles.orientation = heading_quaternion(spec['velocity'])
        f.log = dict(spec['log'])
        frames.append(f)
    return frames


def write_fixture(path):
    """Writes the fixture with gsd.hoomd (mode 'w' replaces an existing file)."""
    with gsd.hoomd.open(name=str(path), mode='w') as t:
        for f in fixture_frames():
            t.append(f)


# What boids writes: chunk -> (dtype, columns; 0 for a 1D array of N × 1, None for the type rows).
PER_PARTICLE = {
    'particles/typeid': (np.uint32, 0),
    'particles/position': (np.float32, 3),
    'particles/orientation': (np.float32, 4),
    'particles/velocity': (np.float32, 3),
    'particles/image': (np.int32, 3),
    'log/particles/id': (np.uint32, 0),
    'log/particles/Particle Identifier': (np.uint32, 0),
    'log/particles/hue': (np.float32, 2),
    'log/particles/hue_velocity': (np.float32, 2),
    'log/particles/world_position': (np.float32, 2),
    'log/particles/predator_kind': (np.uint8, 0),
}
SCALARS = {
    'configuration/step': np.uint64,
    'configuration/dimensions': np.uint8,
    'configuration/box': np.float32,
    'particles/N': np.uint32,
}
EXPECTED_NAMES = set(PER_PARTICLE) | set(SCALARS) | {'particles/types'}


def f32(values):
    return np.asarray(values, dtype=np.float64).astype(np.float32)


def expected_chunks(world, frame):
    """Every chunk boids writes for one frame of EXPECT.json, as numpy arrays (orientation in
    float64: it is compared within rounding)."""
    w, h = f32(world)
    boids = frame['boids']  # [id, x, y, vx, vy, hx, hy, ux, uy, ix, iy]
    preds = frame['predators']  # [x, y, vx, vy, kind]
    nb, n = len(boids), len(boids) + len(preds)
    xy = f32([b[1:3] for b in boids] + [p[0:2] for p in preds]).reshape(n, 2)
    v = f32([b[3:5] for b in boids] + [p[2:4] for p in preds]).reshape(n, 2)
    zeros = np.zeros((n, 1), dtype=np.float32)
    half = np.array([w * np.float32(0.5), h * np.float32(0.5)], dtype=np.float32)
    types = ['boid'] + (['predator'] if preds else [])
    ids = np.array(
        [b[0] for b in boids] + [2**32 - 1 - k for k in range(len(preds))], dtype=np.uint32
    )
    return {
        'configuration/step': np.array([frame['step']], dtype=np.uint64),
        'configuration/dimensions': np.array([2], dtype=np.uint8),
        'configuration/box': np.array([w, h, 0, 0, 0, 0], dtype=np.float32),
        'particles/N': np.array([n], dtype=np.uint32),
        'particles/types': types,
        'particles/typeid': np.array([0] * nb + [1] * len(preds), dtype=np.uint32),
        'particles/position': np.hstack([xy - half, zeros]),
        'particles/orientation': heading_quaternion(v),
        'particles/velocity': np.hstack([v, zeros]),
        'particles/image': np.array(
            [b[9:11] + [0] for b in boids] + [[0, 0, 0]] * len(preds), dtype=np.int32
        ).reshape(n, 3),
        'log/particles/id': ids,
        'log/particles/Particle Identifier': ids,
        'log/particles/hue': f32([b[5:7] for b in boids] + [[0, 0]] * len(preds)).reshape(n, 2),
        'log/particles/hue_velocity': f32(
            [b[7:9] for b in boids] + [[0, 0]] * len(preds)
        ).reshape(n, 2),
        'log/particles/world_position': xy,
        'log/particles/predator_kind': np.array(
            [0] * nb + [p[4] for p in preds], dtype=np.uint8
        ),
    }


def same_bits(a, b):
    """Whether two arrays have the same dtype, shape and bytes (so -0.0 != 0.0)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def check(gsd_path, expect_path):
    """Failure messages for a file boids wrote, against EXPECT.json (empty when all agree)."""
    expect = json.loads(Path(expect_path).read_text())
    frames = expect['frames']
    fail = []
    checked = 0
    with gsd.fl.open(name=str(gsd_path), mode='r') as f:
        if f.schema != 'hoomd' or tuple(f.schema_version) != (1, 4):
            fail.append(f'schema {f.schema} {f.schema_version}, expected hoomd (1, 4)')
        if tuple(f.gsd_version) != (2, 1):
            fail.append(f'file layer {f.gsd_version}, expected (2, 1)')
        if f.nframes != len(frames):
            fail.append(f'{f.nframes} frames, expected {len(frames)}')
        names = list(f.find_matching_chunk_names(''))
        for i, frame in enumerate(frames[: f.nframes]):
            want = expected_chunks(expect['world'], frame)
            n = int(want['particles/N'][0])
            present = {c for c in names if f.chunk_exists(frame=i, name=c)}
            # Frame 0 holds every chunk; a later frame may leave out a chunk equal to frame 0's
            # (the schema's rule: readers take it from frame 0), and only such a chunk.
            first = expected_chunks(expect['world'], frames[0])
            left_out = EXPECTED_NAMES - present
            if i == 0 and left_out:
                fail.append(f'frame 0: chunks missing {sorted(left_out)}')
            for name in sorted(left_out):
                if name == 'particles/types':
                    same = want[name] == first[name]
                else:
                    same = same_bits(want[name], first[name])
                if not same:
                    fail.append(f"frame {i}: {name} left out, but it is not frame 0's")
            if present - EXPECTED_NAMES:
                fail.append(f'frame {i}: unexpected chunks {sorted(present - EXPECTED_NAMES)}')
            for name in sorted(present & EXPECTED_NAMES):
                got = f.read_chunk(frame=i, name=name)
                checked += 1
                if name == 'particles/types':
                    width = max(len(t) for t in want[name]) + 1
                    if got.dtype != np.int8 or got.shape != (len(want[name]), width):
                        fail.append(f'frame {i}, {name}: {got.dtype} {got.shape}')
                        continue
                    rows = got.view(dtype=np.dtype((bytes, width))).reshape(-1)
                    text = [r.decode('utf-8') for r in rows]
                    if text != want[name]:
                        fail.append(f'frame {i}, {name}: {text}, expected {want[name]}')
                    continue
                if name in SCALARS:
                    dtype, shape = SCALARS[name], want[name].shape
                else:
                    dtype, cols = PER_PARTICLE[name]
                    shape = (n,) if cols == 0 else (n, cols)
                if got.dtype != dtype or got.shape != shape:
                    fail.append(
                        f'frame {i}, {name}: {got.dtype} {got.shape}, expected '
                        f'{np.dtype(dtype)} {shape}'
                    )
                    continue
                if name == 'particles/orientation':
                    err = np.abs(got.astype(np.float64) - want[name]).max(initial=0)
                    norm = np.abs(np.linalg.norm(got.astype(np.float64), axis=1) - 1).max(
                        initial=0
                    )
                    if err > 1e-6 or norm > 1e-6:
                        fail.append(f'frame {i}, {name}: off by {err}, |q| - 1 up to {norm}')
                elif not same_bits(got, want[name]):
                    bad = np.argwhere(got != want[name])
                    fail.append(
                        f'frame {i}, {name}: differs at {bad[:3].tolist()}: '
                        f'{got[tuple(bad[0])] if len(bad) else got} vs '
                        f'{want[name][tuple(bad[0])] if len(bad) else want[name]}'
                    )
    # The same file through gsd.hoomd, the reader OVITO-style tools use.
    with gsd.hoomd.open(name=str(gsd_path), mode='r') as t:
        for i, frame in enumerate(frames[: len(t)]):
            want = expected_chunks(expect['world'], frame)
            got = t[i]
            if got.configuration.step != frame['step']:
                fail.append(f'gsd.hoomd frame {i}: step {got.configuration.step}')
            if got.configuration.dimensions != 2:
                fail.append(f'gsd.hoomd frame {i}: dimensions {got.configuration.dimensions}')
            if list(got.particles.types) != want['particles/types']:
                fail.append(f'gsd.hoomd frame {i}: types {got.particles.types}')
            for attr in ('position', 'velocity', 'typeid', 'image'):
                if not same_bits(getattr(got.particles, attr), want['particles/' + attr]):
                    fail.append(f'gsd.hoomd frame {i}: particles.{attr} differs')
            for key in ('id', 'Particle Identifier', 'hue', 'hue_velocity', 'world_position',
                        'predator_kind'):
                if not same_bits(got.log['particles/' + key], want['log/particles/' + key]):
                    fail.append(f"gsd.hoomd frame {i}: log['particles/{key}'] differs")
    if not fail:
        print(
            f'OK: {gsd_path}: {len(frames)} frames, {checked} chunks: names, dtypes, shapes and '
            'values as expected (bit for bit; orientation within 1e-6), chunks left out only where '
            "equal to frame 0's; gsd.hoomd reads the same"
        )
    return fail


def test_fixture_holds_what_the_script_writes(tmp_path):
    """The committed fixture reads back as FIXTURE_FRAMES (through gsd.hoomd, with frame 0's
    chunks standing in for those frame 2 leaves out), and writing it again gives the same
    chunks."""
    again = tmp_path / 'again.gsd'
    write_fixture(again)
    with gsd.fl.open(name=str(FIXTURE), mode='r') as a, gsd.fl.open(
        name=str(again), mode='r'
    ) as b:
        assert a.nframes == b.nframes == len(FIXTURE_FRAMES)
        names = sorted(a.find_matching_chunk_names(''))
        assert names == sorted(b.find_matching_chunk_names(''))
        for i in range(a.nframes):
            for name in names:
                assert a.chunk_exists(frame=i, name=name) == b.chunk_exists(frame=i, name=name)
                if a.chunk_exists(frame=i, name=name):
                    x = a.read_chunk(frame=i, name=name)
                    assert same_bits(x, b.read_chunk(frame=i, name=name))
        assert not a.chunk_exists(frame=2, name='particles/velocity')
    with gsd.hoomd.open(name=str(FIXTURE), mode='r') as t:
        for got, spec in zip(t, FIXTURE_FRAMES):
            assert got.configuration.step == spec['step']
            assert list(got.particles.types) == spec['types']
            assert np.array_equal(got.particles.position, f32(spec['position']))
            assert np.array_equal(got.particles.velocity, f32(spec['velocity']))


def test_rust_written_file():
    """A file boids wrote passes `check` (set BOIDS_GSD_FILE and BOIDS_GSD_EXPECT)."""
    import pytest

    path, expect = os.environ.get('BOIDS_GSD_FILE'), os.environ.get('BOIDS_GSD_EXPECT')
    if not (path and expect):
        pytest.skip('BOIDS_GSD_FILE and BOIDS_GSD_EXPECT are not set')
    assert check(path, expect) == []


def main(argv):
    if len(argv) == 3 and argv[1] == 'fixture':
        write_fixture(argv[2])
        print(f'wrote {argv[2]} ({Path(argv[2]).stat().st_size} bytes, gsd {gsd.version.version})')
        return 0
    if len(argv) == 4 and argv[1] == 'check':
        fail = check(argv[2], argv[3])
        for line in fail:
            print('FAIL', line)
        return 1 if fail else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
