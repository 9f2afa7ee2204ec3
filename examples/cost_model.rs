//! The measured inputs of the cost model in `docs/performance.md`, and the floors it gives.
//!
//! On the adapter present (lavapipe on a machine without a GPU), three tiny shaders measure:
//! - the **FMA rate** (GFLOP/s; one FMA = 2 flops): independent `fma` chains, no memory traffic;
//! - the **copy bandwidth** (GB/s, bytes read + written): a 64 MiB `array<vec4<f32>>` copied;
//! - the **candidate-load rate** (G vec4 loads/s): every invocation loads the same run of
//!   consecutive `vec4`s, as neighbouring boids of one cell load the same candidates.
//!
//! Then a flock at the default density (CPU reference backend, no GPU needed) gives the
//! candidates and neighbours per boid at the start and after `--steps` steps (formed flocks), and
//! the floors of a whole step at each `--sizes` count are printed beside the GPU backend's
//! measured step (median of `--measure` steps, when the count fits the adapter) — for this adapter
//! and for a discrete GPU of the given nominal rates (default: H200, 4.8 TB/s and 60 TFLOP/s).
//!
//! Run: `cargo run --release --example cost_model` (about two minutes on 2 cores), or e.g.
//! `cargo run --release --example cost_model -- --sizes 100k,1M,16M --steps 200`.

use std::time::{Duration, Instant};

use clap::Parser;

use boids::backend::{BackendKind, Simulation};
use boids::cpu::CpuBackend;
use boids::gpu::{GpuBackend, GpuContext};
use boids::model::{Boid, Grid, SimParams, DEFAULT_DENSITY};
use boids::stages::twins::CpuStep;

#[derive(Parser)]
struct Args {
    /// Boid counts of the floors and measured steps (k and M suffixes).
    #[arg(long, value_delimiter = ',', default_value = "100k,1M")]
    sizes: Vec<String>,
    /// Boids of the flock whose candidates and neighbours are counted.
    #[arg(long, default_value_t = 100_000)]
    flock: usize,
    /// Steps before the second count (formed flocks).
    #[arg(long, default_value_t = 1000)]
    steps: u32,
    /// Measured GPU steps per size (after 3 unmeasured ones).
    #[arg(long, default_value_t = 10)]
    measure: u32,
    /// Nominal memory bandwidth of the discrete GPU (TB/s).
    #[arg(long, default_value_t = 4.8)]
    discrete_tbps: f64,
    /// Nominal fp32 rate of the discrete GPU (TFLOP/s).
    #[arg(long, default_value_t = 60.0)]
    discrete_tflops: f64,
}

fn parse_count(s: &str) -> usize {
    let (num, mul) = match s.chars().last() {
        Some('k') | Some('K') => (&s[..s.len() - 1], 1_000.0),
        Some('M') => (&s[..s.len() - 1], 1_000_000.0),
        _ => (s, 1.0),
    };
    let v: f64 = num
        .parse()
        .unwrap_or_else(|_| panic!("not a boid count: {s}"));
    (v * mul) as usize
}

const FMA_WGSL: &str = r#"
@group(0) @binding(0) var<storage, read_write> out: array<vec4<f32>>;
const ITERS: u32 = 512u;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let x = f32(gid.x) * 1e-7;
    var a0 = vec4<f32>(x, x + 1.0, x + 2.0, x + 3.0);
    var a1 = a0 + 4.0;
    var a2 = a0 + 8.0;
    var a3 = a0 + 12.0;
    var a4 = a0 + 16.0;
    var a5 = a0 + 20.0;
    var a6 = a0 + 24.0;
    var a7 = a0 + 28.0;
    let m = vec4<f32>(0.99990);
    let c = vec4<f32>(0.00010);
    for (var i = 0u; i < ITERS; i++) {
        a0 = fma(a0, m, c);
        a1 = fma(a1, m, c);
        a2 = fma(a2, m, c);
        a3 = fma(a3, m, c);
        a4 = fma(a4, m, c);
        a5 = fma(a5, m, c);
        a6 = fma(a6, m, c);
        a7 = fma(a7, m, c);
    }
    out[gid.x % arrayLength(&out)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
"#;
/// Flops of one invocation of FMA_WGSL: iterations × 8 chains × 4 lanes × 2.
const FMA_FLOPS: f64 = 512.0 * 8.0 * 4.0 * 2.0;

const COPY_WGSL: &str = r#"
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = gid.y * nwg.x * 256u + gid.x;
    if (i < arrayLength(&dst)) {
        dst[i] = src[i];
    }
}
"#;

const LOAD_WGSL: &str = r#"
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
const RUN: u32 = 256u;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    // The workgroup's run of RUN consecutive vec4s, the same for all its invocations (as the
    // candidates of the boids of one cell), each masked by a distance test.
    let base = (wid.x * 97u) % (arrayLength(&src) - RUN);
    let q = vec2<f32>(f32(gid.x & 255u), 0.5);
    var acc = vec4<f32>(0.0);
    for (var j = 0u; j < RUN; j++) {
        let v = src[base + j];
        let d = v.xy - q;
        acc += v * select(0.0, 1.0, dot(d, d) < 400.0);
    }
    dst[gid.x % arrayLength(&dst)] = acc;
}
"#;
const LOAD_RUN: f64 = 256.0;

/// Dispatches one step of `n` boids at the default density launches (the heavy ones indirect and
/// usually empty; none for a feature not in use).
fn step_dispatches(ctx: &GpuContext, n: usize) -> u32 {
    let p = SimParams::default().with_world_for(n, DEFAULT_DENSITY);
    GpuBackend::new(ctx, &p, n, 1)
        .map(|g| g.step_entry_points().len() as u32)
        .unwrap_or(0)
}

/// Compute pipeline with an automatic layout.
fn pipeline(ctx: &GpuContext, wgsl: &str) -> wgpu::ComputePipeline {
    let module = ctx
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("cost_model probe"),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        });
    ctx.device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("cost_model probe"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        })
}

fn storage(ctx: &GpuContext, bytes: u64) -> wgpu::Buffer {
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("cost_model probe"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    })
}

/// Best wall time of `reps` submissions of `dispatches` dispatches of `groups` (x, y) workgroups.
fn time_dispatches(
    ctx: &GpuContext,
    p: &wgpu::ComputePipeline,
    bind: &wgpu::BindGroup,
    groups: (u32, u32),
    dispatches: u32,
    reps: u32,
) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..reps {
        let t = Instant::now();
        let mut enc = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(p);
            pass.set_bind_group(0, bind, &[]);
            for _ in 0..dispatches {
                pass.dispatch_workgroups(groups.0, groups.1, 1);
            }
        }
        ctx.queue.submit([enc.finish()]);
        ctx.wait().expect("probe dispatch");
        best = best.min(t.elapsed());
    }
    best
}

fn bind(ctx: &GpuContext, p: &wgpu::ComputePipeline, buffers: &[&wgpu::Buffer]) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = buffers
        .iter()
        .enumerate()
        .map(|(k, b)| wgpu::BindGroupEntry {
            binding: k as u32,
            resource: b.as_entire_binding(),
        })
        .collect();
    ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &p.get_bind_group_layout(0),
        entries: &entries,
    })
}

/// Repeats a probe, doubling its dispatches until one submission takes at least 50 ms; returns
/// (dispatches, best time).
fn calibrated(
    ctx: &GpuContext,
    p: &wgpu::ComputePipeline,
    b: &wgpu::BindGroup,
    groups: (u32, u32),
) -> (u32, Duration) {
    let mut dispatches = 1;
    loop {
        let t = time_dispatches(ctx, p, b, groups, dispatches, 1);
        if t >= Duration::from_millis(50) || dispatches >= 4096 {
            return (
                dispatches,
                time_dispatches(ctx, p, b, groups, dispatches, 5),
            );
        }
        dispatches *= 2;
    }
}

struct Rates {
    gflops: f64,
    copy_gbps: f64,
    gloads: f64,
    /// Dispatches of a step of 100 000 boids.
    dispatches: u32,
    /// Wall time of one submission of a step's worth of tiny dispatches, waited for (ms).
    launch_ms: f64,
}

fn adapter_rates(ctx: &GpuContext) -> Rates {
    let max_binding = ctx.device.limits().max_storage_buffer_binding_size;
    let bytes = (64u64 << 20).min(max_binding / 2 * 2);
    let a = storage(ctx, bytes);
    let b = storage(ctx, bytes);
    let small = storage(ctx, 1 << 20);

    let fma = pipeline(ctx, FMA_WGSL);
    let fb = bind(ctx, &fma, &[&small]);
    let groups = 1024u32;
    let (d, t) = calibrated(ctx, &fma, &fb, (groups, 1));
    let gflops = FMA_FLOPS * 256.0 * groups as f64 * d as f64 / t.as_secs_f64() / 1e9;

    let copy = pipeline(ctx, COPY_WGSL);
    let cb = bind(ctx, &copy, &[&a, &b]);
    let items = (bytes / 16) as u32;
    let wg = items.div_ceil(256);
    let (gx, gy) = (wg.min(32768), wg.div_ceil(32768));
    let (d, t) = calibrated(ctx, &copy, &cb, (gx, gy));
    let copy_gbps = 2.0 * bytes as f64 * d as f64 / t.as_secs_f64() / 1e9;

    let load = pipeline(ctx, LOAD_WGSL);
    let lb = bind(ctx, &load, &[&a, &small]);
    let groups = 4096u32;
    let (d, t) = calibrated(ctx, &load, &lb, (groups, 1));
    let gloads = LOAD_RUN * 256.0 * groups as f64 * d as f64 / t.as_secs_f64() / 1e9;
    let tiny = storage(ctx, 256 * 16);
    let tb = bind(ctx, &copy, &[&tiny, &small]);
    let dispatches = step_dispatches(ctx, 100_000);
    let launch = time_dispatches(ctx, &copy, &tb, (1, 1), dispatches, 20);
    Rates {
        gflops,
        copy_gbps,
        gloads,
        dispatches,
        launch_ms: launch.as_secs_f64() * 1e3,
    }
}

/// Candidates per boid: the entries of the boid's block (ghosts included, itself excluded), from
/// the cell starts and sorted items of the step's counting sort; and the neighbour count.
struct FlockCounts {
    candidates: f64,
    max_candidates: u32,
    neighbors: f64,
    ghost_fraction: f64,
    cells_per_boid: f64,
}

fn flock_counts(step: &CpuStep, grid: &Grid, n: usize) -> FlockCounts {
    let cells = &step.cells;
    let mut total = 0u64;
    let mut max = 0u32;
    for item in &step.sorted_pos_vel[..n] {
        let (cx, cy) = grid.cell_xy(glam::Vec2::new(item[0], item[1]));
        let mut k = 0u32;
        grid.for_each_block_row(cy, |row, _| {
            for (first, last) in grid.row_ranges(row, cx).into_iter().flatten() {
                k += cells[last as usize + 1] - cells[first as usize];
            }
        });
        total += (k - 1) as u64;
        max = max.max(k - 1);
    }
    let items = *cells.last().unwrap_or(&0) as f64;
    FlockCounts {
        candidates: total as f64 / n as f64,
        max_candidates: max,
        neighbors: step.neighbors.iter().map(|&k| k as f64).sum::<f64>() / n as f64,
        ghost_fraction: items / n as f64 - 1.0,
        cells_per_boid: grid.cells() as f64 / n as f64,
    }
}

/// The cost model per boid and step (see docs/performance.md): memory bytes and vector operations.
struct PerBoid {
    /// Every access of a pass counted once, as each invocation makes it (the figure of earlier
    /// readings): a rules invocation's own item, its ~10 cell starts, and each sorted item once
    /// more as a candidate (from cache).
    bytes: f64,
    /// Bytes from DRAM when the cache holds the sliding window of block rows a pass reads (a few
    /// rows of sorted items: 10 KB a row at 100k boids, 128 KB at 16M): each sorted item, cell
    /// start and slot id read once per pass, whoever reads it.
    dram_bytes: f64,
    ops: f64,
    candidate_loads: f64,
}

fn per_boid(f: &FlockCounts) -> PerBoid {
    let g = 1.0 + f.ghost_fraction;
    let c = f.cells_per_boid;
    // clear: 4 B per cell written; count: the cell word 4 (the previous step's `rules` wrote it:
    // the steady state; the first step after a change of grid or state reads the position, 16,
    // and writes the word) + atomic 4+4 + rank 4 per item;
    // scan: 4 B read per cell (the block sums), then 4 B read and written (each cell's start:
    // its block's exclusive sum plus the block's offset); slots: cell 4,
    // rank 4, cell start 4, slot id 4 per item and the id 4 per boid; scatter: pos_vel, hue and
    // id (16 + 16 + 4) read and written per item and the image counts (8) per boid (a ghost has
    // none), the cell's 8 and its slot ids (one per item at this density) per item; rules: own
    // 36 read (pos_vel, hue, id), 36 written (pos_vel, hue, neighbour count: the id and image
    // counts stay in the sorted buffer, which becomes the state's, and an image count changes
    // there only for a boid that crosses an edge, a few in a thousand a step, not counted), the
    // cell words for the next `count` (4 per item: the boid's, and its ghost's), ~10 cell
    // starts, candidates from cache (36 B per item; the 4 B neighbour count of the 36 written is
    // not stored by a step whose counts nothing reads, `skip_neighbor_counts`); measures: 16 + 4.
    let bytes = 4.0 * c
        + 16.0 * g
        + 12.0 * c
        + (16.0 * g + 4.0)
        + (84.0 * g + 16.0)
        + (36.0 + 36.0 + 4.0 * g + 40.0 + 36.0 * g)
        + 20.0;
    // From DRAM: scatter reads each cell start (4 B a cell) and slot id (4 B an item) once, and
    // rules each sorted item once (pos_vel, hue and id, 36 B; the pos_vel and hue of a ghost,
    // 32 B) and each cell start once, besides its 36 B of writes and the cell words.
    let dram_bytes = 4.0 * c
        + 16.0 * g
        + 12.0 * c
        + (16.0 * g + 4.0)
        + (72.0 * g + 16.0 + 4.0 * c + 4.0 * g)
        + (36.0 + 32.0 * (g - 1.0) + 4.0 * c + 36.0 + 4.0 * g)
        + 20.0;
    // 46 vector operations per candidate (counted in shaders/gather.wgsl's gather_range: offset 2,
    // dot 2, six compares and five ands, separation 7, alignment 5, cohesion 5, hue 9, count 3),
    // ~300 for the rest of the boid (block rows, integrate, rng), ~25 per item in the sort, ~6 per
    // cell (clear and scan).
    let ops = 46.0 * f.candidates + 300.0 + 25.0 * 3.0 * g + 6.0 * c;
    PerBoid {
        bytes,
        dram_bytes,
        ops,
        candidate_loads: 2.0 * f.candidates,
    }
}

fn fmt_ms(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0} ms")
    } else if ms >= 10.0 {
        format!("{ms:.1} ms")
    } else if ms >= 1.0 {
        format!("{ms:.2} ms")
    } else if ms >= 0.01 {
        format!("{:.0} µs", ms * 1e3)
    } else {
        format!("{:.2} µs", ms * 1e3)
    }
}

fn main() {
    let args = Args::parse();
    let ctx = match GpuContext::new() {
        Ok(c) => Some(c),
        Err(e) => {
            println!("SKIPPED: no GPU adapter ({e}); the flock counts and discrete floors only");
            None
        }
    };
    let rates = ctx.as_ref().map(|ctx| {
        println!("adapter: {}", ctx.describe());
        let r = adapter_rates(ctx);
        println!(
            "  FMA rate {:.1} GFLOP/s; copy bandwidth {:.1} GB/s (read + write); candidate loads {:.2} G vec4/s; \
             one submission of {} tiny dispatches (a step of 100k boids) {}",
            r.gflops,
            r.copy_gbps,
            r.gloads,
            r.dispatches,
            fmt_ms(r.launch_ms)
        );
        r
    });

    // The flock: default parameters at the default density, the CPU reference backend.
    let n = args.flock;
    let params = SimParams::default().with_world_for(n, DEFAULT_DENSITY);
    let grid = Grid::new(&params, n);
    let mut cpu = CpuBackend::new(BackendKind::Cpu, &params, n, 1).expect("flock");
    let initial = cpu.read_state().expect("state");
    cpu.step().expect("step");
    let start = flock_counts(cpu.buffers(), &grid, n);
    for _ in 1..args.steps {
        cpu.step().expect("step");
    }
    let formed = flock_counts(cpu.buffers(), &grid, n);
    // The GPU step on that flock: from the same start, and from the formed state (the CPU's).
    let gpu_start = ctx
        .as_ref()
        .and_then(|ctx| measure_state(ctx, &params, &initial, args.measure));
    let gpu_formed = ctx.as_ref().and_then(|ctx| {
        let boids = cpu.read_state().expect("state");
        measure_state(ctx, &params, &boids, args.measure)
    });
    println!(
        "flock of {n} boids, {DEFAULT_DENSITY} boids/wu², perception radius {} wu, cells {} × {} (+{} ghost columns a side)",
        params.perception_radius, grid.cols, grid.rows, grid.pad
    );
    for (when, f) in [
        ("step 1", &start),
        (&*format!("step {}", args.steps), &formed),
    ] {
        println!(
            "  {when:>10}: {:.1} candidates per boid (max {}), {:.1} neighbours, ghosts +{:.1} %, {:.2} cells per boid",
            f.candidates,
            f.max_candidates,
            f.neighbors,
            100.0 * f.ghost_fraction,
            f.cells_per_boid
        );
    }

    if let (Some(a), Some(b)) = (gpu_start, gpu_formed) {
        println!(
            "  GPU step of this flock (median of {}): {} at step 1, {} at step {}",
            args.measure.max(1),
            fmt_ms(a),
            fmt_ms(b),
            args.steps
        );
    }

    let pb = per_boid(&start);
    println!(
        "per boid and step: {:.0} B of memory traffic counted per access ({:.0} B from DRAM with the \
         block rows' window in cache; {:.0} B without the measures, {:.0} B for a step that also \
         stores no neighbour counts, as a warm-up's), {:.0} vector operations, {:.0} candidate \
         vec4 loads",
        pb.bytes,
        pb.dram_bytes,
        pb.dram_bytes - 20.0,
        pb.dram_bytes - 20.0 - 4.0,
        pb.ops,
        pb.candidate_loads
    );
    println!(
        "{:>6} | {:>30} | {:>30} | {:>10}",
        "boids", "this adapter: mem / ops / loads", "discrete: mem / ops", "measured"
    );
    for s in &args.sizes {
        let count = parse_count(s);
        let nn = count as f64;
        let disc_mem = pb.dram_bytes * nn / (args.discrete_tbps * 1e12) * 1e3;
        let disc_ops = pb.ops * nn / (args.discrete_tflops * 1e12 / 2.0) * 1e3;
        let here = rates.as_ref().map(|r| {
            (
                pb.dram_bytes * nn / (r.copy_gbps * 1e9) * 1e3,
                pb.ops * nn / (r.gflops * 1e9 / 2.0) * 1e3,
                pb.candidate_loads * nn / (r.gloads * 1e9) * 1e3,
            )
        });
        let measured = ctx
            .as_ref()
            .and_then(|ctx| measure_step(ctx, count, args.measure));
        println!(
            "{:>6} | {:>30} | {:>30} | {:>10}",
            s,
            here.map(|(m, o, l)| format!("{} / {} / {}", fmt_ms(m), fmt_ms(o), fmt_ms(l)))
                .unwrap_or_else(|| "—".into()),
            format!("{} / {}", fmt_ms(disc_mem), fmt_ms(disc_ops)),
            measured.map(fmt_ms).unwrap_or_else(|| "—".into())
        );
    }
}

/// Median GPU step time (ms, submit to wait) at `n` boids and the default density, or None when
/// the adapter cannot hold them.
fn measure_step(ctx: &GpuContext, n: usize, steps: u32) -> Option<f64> {
    let p = SimParams::default().with_world_for(n, DEFAULT_DENSITY);
    match GpuBackend::new(ctx, &p, n, 1) {
        Ok(g) => median_step(g, steps),
        Err(e) => {
            eprintln!("{n} boids: {e}");
            None
        }
    }
}

/// Median GPU step time (ms) from the state `boids` (e.g. a formed flock).
fn measure_state(ctx: &GpuContext, p: &SimParams, boids: &[Boid], steps: u32) -> Option<f64> {
    match GpuBackend::from_state(ctx, p, boids, 1) {
        Ok(g) => median_step(g, steps),
        Err(e) => {
            eprintln!("{} boids: {e}", boids.len());
            None
        }
    }
}

/// Median time (ms, submit to wait) of `steps` steps of `gpu`, after 3 unmeasured ones.
fn median_step(mut gpu: GpuBackend, steps: u32) -> Option<f64> {
    gpu.set_profiling(false);
    for _ in 0..3 {
        gpu.step().ok()?;
    }
    gpu.finish().ok()?;
    let mut times = Vec::new();
    for _ in 0..steps.max(1) {
        let t = Instant::now();
        gpu.step().ok()?;
        gpu.finish().ok()?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    Some(times[times.len() / 2])
}
