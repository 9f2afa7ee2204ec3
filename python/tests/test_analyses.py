"""`boids analyse` (docs/model.md §12.11) against freud on the same frames: g(r) against freud's
RDF, C(r) against freud's CorrelationFunction of the velocity fluctuations, the cluster sizes
against freud's Cluster, the MSD against freud's window MSD,
S(k) against its definition summed in numpy (freud's StaticStructureFactorDirect refuses 2D
boxes). Each comparison is shown to see a planted difference."""

import csv

import freud
import gsd.hoomd
import numpy as np
import pytest


def read_csv(path):
    """The scalars (from `# name = value unit` lines) and the columns of an analysis CSV."""
    scalars, rows = {}, []
    with open(path) as f:
        lines = f.read().splitlines()
    body = [l for l in lines if not l.startswith("#")]
    for l in lines:
        if l.startswith("# ") and " = " in l:
            name, value = l[2:].split(" = ", 1)
            scalars[name] = value
    header = body[0].split(",")
    for r in csv.reader(body[1:]):
        rows.append([float(v) for v in r])
    return scalars, header, np.array(rows)


@pytest.fixture(scope="module")
def run(cli, tmp_path_factory):
    """A boids run of 3000 boids (flocking, so C(r) and S(k) have structure), 12 frames 10 steps
    apart, analysed by `boids analyse`."""
    d = tmp_path_factory.mktemp("analyses")
    t = d / "run.gsd"
    cli("headless", "--boids", 3000, "--seed", 4, "--steps", 110, "--every", 10, "--trajectory", t)
    cli("analyse", t, "--analyse-every", 1, "--r-max", 40, "--bin", 1,
        "--analyse", f"rdf={d / 'g.csv'}",
        "--analyse", f"velocity_correlation={d / 'c.csv'}",
        "--analyse", f"cluster_sizes={d / 'p.csv'}", "--link-radius", 12,
        "--analyse", f"msd={d / 'm.csv'}",
        "--analyse", f"structure_factor={d / 's.csv'}", "--mesh", 64)
    with gsd.hoomd.open(str(t), "r") as f:
        frames = [(fr.configuration.box, fr.particles.position.copy(), fr.particles.velocity.copy(),
                   fr.particles.image.copy()) for fr in f]
    return d, frames


def systems(frames):
    for box, pos, vel, img in frames:
        yield freud.box.Box.from_box(box), pos, vel, img


def test_g_of_r_is_freuds_rdf(run):
    d, frames = run
    _, header, g = read_csv(d / "g.csv")
    assert header[:2] == ["r_wu", "g(r)"]
    rdf = freud.density.RDF(bins=40, r_max=40.0)
    for box, pos, _, _ in systems(frames):
        rdf.compute(system=(box, pos), reset=False)
    np.testing.assert_allclose(g[:, 0], rdf.bin_centers, rtol=1e-6)
    ours, theirs = g[2:, 1], rdf.rdf[2:]
    np.testing.assert_allclose(ours, theirs, rtol=0.01)
    assert not np.allclose(ours * 1.02, theirs, rtol=0.01)


def test_c_of_r_is_freuds_correlation_function(run):
    d, frames = run
    scalars, header, c = read_csv(d / "c.csv")
    assert header[:2] == ["r_wu", "C(r)"] and "xi" in scalars
    num = np.zeros(40)
    pairs = np.zeros(40)
    for box, pos, vel, _ in systems(frames):
        dv = vel[:, :2] - vel[:, :2].mean(axis=0)
        phi = dv / np.sqrt(np.mean(np.sum(dv**2, axis=1)))
        z = phi[:, 0] + 1j * phi[:, 1]
        cf = freud.density.CorrelationFunction(bins=40, r_max=40.0)
        cf.compute(system=(box, pos), values=z)
        # freud averages conj(z_i) z_j over the pairs of each bin; the states are summed by pairs,
        # as ours are.
        num += np.real(cf.correlation) * cf.bin_counts
        pairs += cf.bin_counts
    theirs = num / pairs
    scale = np.max(np.abs(theirs))
    assert scale > 0.2
    np.testing.assert_allclose(c[:, 1], theirs, atol=0.01 * scale)
    assert not np.allclose(c[:, 1] + 0.02 * scale, theirs, atol=0.01 * scale)


def test_cluster_sizes_are_freuds_clusters(run):
    d, frames = run
    _, header, p = read_csv(d / "p.csv")
    counts = {}
    for box, pos, _, _ in systems(frames):
        cl = freud.cluster.Cluster().compute(system=(box, pos), neighbors={"r_max": 12.0})
        for s in np.bincount(cl.cluster_idx):
            counts[s] = counts.get(s, 0) + 1
    total = sum(counts.values())
    sizes = sorted(counts)
    np.testing.assert_array_equal(p[:, 0], sizes)
    np.testing.assert_allclose(p[:, 1], [counts[s] / total for s in sizes], rtol=1e-12)
    np.testing.assert_array_equal(p[:, 2], [counts[s] for s in sizes])


def test_msd_is_freuds_window_msd(run):
    d, frames = run
    _, header, m = read_csv(d / "m.csv")
    assert header[:2] == ["t_s", "MSD_wu²"]
    box = freud.box.Box.from_box(frames[0][0])
    pos = np.stack([f[1] for f in frames])
    img = np.stack([f[3] for f in frames])
    msd = freud.msd.MSD(box, mode="window").compute(pos, img).msd
    # 12 frames 10 steps (1/6 s) apart: lags 1 … 11 frames, all at the correlator's first level,
    # each over every time origin, as freud's window mode.
    lags = np.rint(m[:, 0] / (10 / 60)).astype(int)
    np.testing.assert_array_equal(lags, np.arange(1, 12))
    # freud works in float32.
    np.testing.assert_allclose(m[:, 1], msd[lags], rtol=1e-4)
    assert not np.allclose(m[:, 1] * 1.01, msd[lags], rtol=1e-4)


def test_structure_factor_is_the_direct_sum(run):
    """freud's StaticStructureFactorDirect refuses 2D boxes ("2D boxes are not currently
    supported", freud 3.4), so S(k) is checked against its definition computed here in numpy:
    |sum_j exp(-i k.r_j)|^2 / N on the box's wave vectors, averaged over the shells."""
    d, frames = run
    _, header, s = read_csv(d / "s.csv")
    assert header[:2] == ["k_1/wu", "S(k)"]
    box = frames[0][0]
    lx, ly = box[0], box[1]
    dk = 2 * np.pi / min(lx, ly)
    shells = len(s)
    k_max = dk * (shells + 1)
    nx = np.arange(-int(k_max * lx / (2 * np.pi)) - 1, int(k_max * lx / (2 * np.pi)) + 2)
    ny = np.arange(-int(k_max * ly / (2 * np.pi)) - 1, int(k_max * ly / (2 * np.pi)) + 2)
    kx, ky = np.meshgrid(2 * np.pi * nx / lx, 2 * np.pi * ny / ly)
    kx, ky = kx.ravel(), ky.ravel()
    k = np.hypot(kx, ky)
    # Our mesh reports up to pi / (2 h); shell b is [(b + 1/2) dk, (b + 3/2) dk).
    mesh_k_max = np.pi / (2 * max(lx, ly) / 64)
    keep = (k > 0) & (k <= mesh_k_max)
    kx, ky, k = kx[keep], ky[keep], k[keep]
    shell = np.minimum(np.maximum(np.rint(k / dk).astype(int), 1), shells) - 1
    total = np.zeros(shells)
    count = np.zeros(shells)
    ksum = np.zeros(shells)
    for _, pos, _, _ in frames:
        # GSD positions are centred on the box; a shift changes no |rho_k|.
        rho = np.exp(-1j * (np.outer(kx, pos[:, 0]) + np.outer(ky, pos[:, 1]))).sum(axis=1)
        sk = np.abs(rho) ** 2 / len(pos)
        np.add.at(total, shell, sk)
        np.add.at(count, shell, 1)
        np.add.at(ksum, shell, k)
    ok = count > 0
    np.testing.assert_allclose(s[:, 0], ksum[ok] / count[ok], rtol=1e-9)
    np.testing.assert_allclose(s[:, 1], total[ok] / count[ok], rtol=1e-4)
    assert not np.allclose(s[:, 1] * 1.001, total[ok] / count[ok], rtol=1e-4)


def test_analyse_takes_numpy_states(run):
    """boids.analyse gives the command line's curve from the same frames as numpy arrays: g(r) as
    `boids analyse` wrote it, the MSD from a list of states with their ids and images, ξ by name;
    an unknown analysis and a setting out of range are ValueErrors naming the limit."""
    import boids

    d, frames = run
    box = frames[0][0]
    w, h = float(box[0]), float(box[1])
    states = [{"positions": pos[:, :2] + [w / 2, h / 2], "velocities": vel[:, :2], "images": img[:, :2]}
              for _, pos, vel, img in frames]
    _, _, g = read_csv(d / "g.csv")
    got = boids.analyse("rdf", states, (w, h), r_max=40.0, bin=1.0)
    assert set(got) == {"x", "y", "samples"}
    np.testing.assert_allclose(got["x"], g[:, 0], rtol=1e-12)
    # The file's positions are centred on the box; shifted here in float32 as the reader shifts
    # them in its own arithmetic, a pair at a bin's edge may fall on the other side of it.
    np.testing.assert_allclose(got["y"], g[:, 1], rtol=1e-4)
    _, _, m = read_csv(d / "m.csv")
    msd = boids.analyse("msd", states, (w, h), interval=10 / 60)
    np.testing.assert_allclose(msd["y"], m[:, 1], rtol=1e-5)
    c = boids.analyse("velocity_correlation", states[-1], (w, h), r_max=40.0, bin=1.0)
    assert c["xi"] is None or 0 < c["xi"] < 40
    with pytest.raises(ValueError, match="no analysis `gofr`"):
        boids.analyse("gofr", states, (w, h))
    with pytest.raises(ValueError, match=r"r_max = 500 cannot be honoured"):
        boids.analyse("rdf", states, (w, h), r_max=500.0)
    with pytest.raises(ValueError, match="no \"velocities\""):
        boids.analyse("rdf", {"positions": states[0]["positions"]}, (w, h))
    # A tuple of states is a sequence of them, as a list is.
    np.testing.assert_allclose(boids.analyse("msd", tuple(states), (w, h), interval=10 / 60)["y"],
                               msd["y"], rtol=1e-12)
    # What the analyses cannot read is a ValueError naming it, not a crash or a wrong curve.
    s0 = states[0]
    def with_(key, change):
        a = s0[key].copy() if key in s0 else None
        bad = dict(s0)
        bad[key] = change(a)
        return bad
    def nan(a):
        a[3, 0] = np.nan
        return a
    def outside(a):
        a[3, 0] = w + 5
        return a
    cases = [
        (with_("positions", nan), {}, "boid 3 is at \\(NaN"),
        (with_("positions", outside), {}, "boid 3 is at .* outside the world"),
        (with_("velocities", nan), {}, "boid 3 has velocity \\(NaN"),
        (with_("ids", lambda _: np.zeros(len(s0["positions"]), dtype=np.uint32)), {},
         "two boids have id 0"),
        (with_("positions", lambda a: np.zeros((len(a), 3))), {}, r"positions has shape \[\d+, 3\]"),
        (s0, {"interval": 0.0}, "interval = 0: a finite number above 0"),
        (s0, {"mesh": -1}, "mesh = -1: allowed 16 ..= 4096"),
        (s0, {"mesh": 64}, "mesh = 64: rdf does not read it \\(it is read by structure_factor\\)"),
        ([], {}, "states is empty"),
    ]
    for state, kw, says in cases:
        with pytest.raises(ValueError, match=says):
            boids.analyse("msd" if "interval" in kw else "rdf", state, (w, h), **kw)
    with pytest.raises(ValueError, match="world width = 0"):
        boids.analyse("rdf", s0, (0.0, h))
    # The world as any pair of numbers; the arrays' own messages once prefixed, not twice.
    for world in ([w, h], np.array([w, h])):
        np.testing.assert_array_equal(boids.analyse("rdf", s0, world)["y"],
                                      boids.analyse("rdf", s0, (w, h))["y"])
    bad = dict(s0)
    bad["ids"] = np.full(len(s0["positions"]), -5)
    with pytest.raises(ValueError) as e:
        boids.analyse("rdf", bad, (w, h))
    assert str(e.value).startswith("state 0: ids:") and "ValueError" not in str(e.value)


def test_another_programs_trajectory_is_analysed(cli, tmp_path):
    """A HOOMD trajectory as another program writes it (particle type 'A', no ids, no hue, no
    boids log): `boids analyse` reads its particles as boids; its g(r) is freud's RDF and its MSD
    the window MSD on the same frames (summed here in float64)."""
    rng = np.random.default_rng(7)
    n, side = 2000, 120.0
    t = tmp_path / "foreign.gsd"
    pos = rng.random((n, 3)).astype(np.float32) * side - side / 2
    pos[:, 2] = 0
    frames = []
    with gsd.hoomd.open(str(t), "w") as f:
        for k in range(6):
            fr = gsd.hoomd.Frame()
            fr.configuration.step = 5 * k
            fr.configuration.box = [side, side, 0, 0, 0, 0]
            fr.configuration.dimensions = 2
            fr.particles.N = n
            fr.particles.types = ["A"]
            step = (rng.random((n, 3)).astype(np.float32) - 0.5) * 2
            step[:, 2] = 0
            unwrapped = pos + step
            img = np.floor((unwrapped + side / 2) / side).astype(np.int32)
            pos = (unwrapped - img * side).astype(np.float32)
            if k == 0:
                # On the box's upper face, as float32 rounding leaves particles in other programs'
                # files: read as its periodic image on the lower face.
                pos[0, 0] = side / 2
            img_total = img if k == 0 else frames[-1][1] + img
            fr.particles.position = pos
            fr.particles.image = img_total
            fr.particles.velocity = step
            f.append(fr)
            frames.append((pos.copy(), img_total.copy()))
    cli("analyse", t, "--r-max", 30, "--bin", 1,
        "--analyse", f"rdf={tmp_path / 'g.csv'}", "--analyse", f"msd={tmp_path / 'm.csv'}")
    box = freud.box.Box.square(side)
    rdf = freud.density.RDF(bins=30, r_max=30.0)
    for p, _ in frames:
        rdf.compute(system=(box, p), reset=False)
    _, _, g = read_csv(tmp_path / "g.csv")
    np.testing.assert_allclose(g[2:, 1], rdf.rdf[2:], rtol=0.01)
    # The window MSD over every time origin, in float64 (freud's works in float32).
    _, _, m = read_csv(tmp_path / "m.csv")
    r = np.stack([p.astype(np.float64) + i * side for p, i in frames])[:, :, :2]
    msd = [np.mean(np.sum((r[lag:] - r[:-lag]) ** 2, axis=2)) for lag in range(1, len(frames))]
    np.testing.assert_allclose(m[:, 1], msd, rtol=1e-6)
    assert not np.allclose(m[:, 1] * 1.01, msd, rtol=1e-6)
