//! The `boids` command line: the interactive app (default), headless runs, adapter info,
//! benchmark captures and parameter sweeps.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use boids::headless::{self, HeadlessArgs};
use boids::stats::format::format_ms;

#[derive(Parser)]
#[command(
    name = "boids",
    version,
    about = "GPU flocking simulator (wgpu compute) with a CPU reference backend",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Without a subcommand, `boids` is `boids run`: its options are taken here too
    /// (`boids --boids 50000` opens the app with 50 000 boids).
    #[command(flatten)]
    run: boids::app::RunArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Run the simulation without a window; print step times and flock measures.
    #[command(after_help = boids::run::spec::PRECEDENCE)]
    Headless(HeadlessArgs),
    /// List GPU adapters with backend, device type, driver and limits.
    Info,
    /// Render the app's picture offscreen after some steps and write a PNG (no window needed).
    Snapshot(boids::app::snapshot::SnapshotArgs),
    /// Open the interactive app (the default when no subcommand is given).
    Run(boids::app::RunArgs),
    /// Benchmark sweep (counts × backends) recorded as a capture folder; or --compare A B.
    Bench(boids::bench::cli::BenchArgs),
    /// Parameter sweep: an order parameter against the noise η, rotational diffusion, density, a
    /// weight or any other parameter (with error bars), optionally one shard of it; or `sweep merge
    /// OUT DIR…` to combine shard folders.
    Sweep(boids::sweep::args::SweepArgs),
    /// The analyses of a trajectory's frames (GSD): C(r) and ξ, S(k), g(r), the local density,
    /// the density profile, P(s), the MSD, the heading autocorrelation, each a CSV and a plot.
    Analyse(boids::analyse::AnalyseArgs),
}

/// `boids analyse`: the analyses, then one line each.
fn run_analyse(args: &boids::analyse::AnalyseArgs) -> Result<(), boids::run::RunError> {
    let r = boids::analyse::run(args)?;
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    println!(
        "{:<15} {} frame{} of {} boids, parameters from {}",
        "analysed:",
        r.frames,
        if r.frames == 1 { "" } else { "s" },
        r.boids,
        r.params_from
    );
    for line in &r.lines {
        println!("{:<15} {line}", "analysis:");
    }
    match r.unfinished.is_empty() {
        true => Ok(()),
        false => Err(boids::run::RunError::Unfinished(r.unfinished)),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => exit_on_usage_error(e),
    };
    if !matches!(
        cli.command,
        Some(Command::Bench(_)) | Some(Command::Sweep(_)) | Some(Command::Headless(_))
    ) {
        // `headless`, `bench` and `sweep` install their own handler (stop after the current step
        // or point, still writing their files).
        let _ = boids::io::install_interrupt_cleanup();
    }
    quiet_on_broken_pipe();
    match std::panic::catch_unwind(move || run_command(cli)) {
        Ok(code) => code,
        Err(p) if is_broken_pipe(&*p) => ExitCode::from(BROKEN_PIPE_STATUS),
        Err(p) => std::panic::resume_unwind(p),
    }
}

/// The exit status after a closed pipe: 128 + SIGPIPE, as a Unix tool killed by the signal.
const BROKEN_PIPE_STATUS: u8 = 141;

/// Whether a panic is `print!`'s on a closed standard output or error (`boids … | head`): Rust
/// ignores SIGPIPE, so a write to a closed pipe fails, and the printing macros panic on failure.
fn is_broken_pipe(payload: &(dyn std::any::Any + Send)) -> bool {
    let msg = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("");
    // The OS's number of EPIPE as well as its (English) words.
    msg.starts_with("failed printing to std")
        && (msg.contains("Broken pipe") || msg.contains("(os error 32)"))
}

/// A closed pipe ends the program quietly, as it ends other Unix tools: the printing macros'
/// panic is caught in `main` (status [`BROKEN_PIPE_STATUS`]) and its message left out. It
/// unwinds first, so temporary files are removed and the files written so far stay whole.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !is_broken_pipe(info.payload()) {
            default(info);
        }
    }));
}

/// Runs the command; its error, if any, printed.
fn run_command(cli: Cli) -> ExitCode {
    // Each command returns its own error type; every one is printed the same way.
    let result: Result<(), Box<dyn std::error::Error>> = match cli.command {
        Some(Command::Headless(args)) => run_headless(&args).map_err(Into::into),
        Some(Command::Info) => {
            print!("{}", boids::gpu::adapter_report());
            Ok(())
        }
        Some(Command::Snapshot(args)) => boids::app::snapshot::run(&args).map_err(Into::into),
        Some(Command::Bench(args)) => boids::bench::cli::run(&args).map_err(Into::into),
        Some(Command::Sweep(args)) => boids::sweep::cli::run(&args).map_err(Into::into),
        Some(Command::Analyse(args)) => run_analyse(&args).map_err(Into::into),
        Some(Command::Run(args)) => boids::app::run(args).map_err(Into::into),
        None => boids::app::run(cli.run).map_err(Into::into),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", boids::io::clip_message(&e.to_string()));
            ExitCode::FAILURE
        }
    }
}

/// Prints clap's message and exits with its code; a message that quotes a huge value (clap quotes
/// the whole invalid value) is shortened first, which drops its colours.
fn exit_on_usage_error(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    let text = e.render().to_string();
    let help = matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if help || text.len() <= 1000 {
        e.exit()
    }
    let short = boids::io::clip_quoted(&text, &['\'', '"', '`']);
    eprint!("{short}");
    if !short.ends_with('\n') {
        eprintln!();
    }
    std::process::exit(e.exit_code())
}

fn run_headless(opts: &HeadlessArgs) -> Result<(), boids::run::RunError> {
    let stop = boids::run::steps::Stop::install("the current step");
    let r = headless::run(opts, &stop)?;
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    println!("backend:        {}", opts.backend.name());
    println!("device:         {}", r.device);
    println!("boids:          {}", r.boids);
    println!(
        "world:          {} × {} wu, density {} boids/wu² ({})",
        r.world[0],
        r.world[1],
        boids::stats::format::significant(
            r.boids as f64 / (r.world[0] as f64 * r.world[1] as f64),
            3
        ),
        r.world_from
    );
    println!(
        "steps:          {} (step index now {})",
        r.steps, r.step_index
    );
    if r.steps == 0 {
        println!("step time:      no step run");
    } else {
        println!(
            "step time:      median {}, p95 {}, mean {}",
            format_ms(r.step_ms.median_ms),
            format_ms(r.step_ms.p95_ms),
            format_ms(r.step_ms.mean_ms)
        );
    }
    if !r.stage_median_ms.is_empty() {
        let parts: Vec<String> = r
            .stage_median_ms
            .iter()
            .map(|(n, ms)| format!("{n} {}", format_ms(*ms)))
            .collect();
        println!("stages (median): {}", parts.join(", "));
    }
    for m in &r.columns {
        let id =
            boids::model::measures::MeasureId::by_name(m.name).expect("a measure of the table");
        let label = format!("{}:", m.title);
        let value = match r.measures.get(id) {
            Some(v) => m.format(v, r.speed_unit),
            // Not computed: the mean neighbour count before any step.
            None => "—".to_string(),
        };
        println!("{label:<15} {value}");
    }
    if r.predators > 0 {
        println!("{:<15} {}", "predators:", r.predators);
    }
    if let Some((phi, stats)) = &r.order {
        println!(
            "order parameter {}{} over the {} written to --stats{} (± one standard error):",
            phi.symbol,
            // Its name when it has one besides its symbol (the polarization; v_a is its name).
            if phi.title == phi.symbol {
                String::new()
            } else {
                format!(" (the {})", phi.title)
            },
            match r.stats_every {
                1 => format!("{} steps", r.stats_rows),
                k => format!("{} rows (one every {k} steps)", r.stats_rows),
            },
            if r.discard > 0 {
                format!(", after {} discarded", r.discard)
            } else {
                String::new()
            }
        );
        for (k, (m, e)) in stats.iter().enumerate() {
            // The first is the order parameter's own time average.
            let (symbol, title) = match k {
                0 => ("⟨φ⟩", "mean of the order parameter"),
                _ => (m.symbol, m.title),
            };
            if m.unit == boids::model::measures::Unit::Steps {
                println!(
                    "  {symbol:<8}{title:<38}{:>10.1} ± {:.1} steps  ({})",
                    e.value, e.error, e.kind
                );
            } else {
                println!(
                    "  {symbol:<8}{title:<38}{:>10.4} ± {:.4}  ({})",
                    e.value, e.error, e.kind
                );
            }
        }
    }
    if r.order.is_none() && r.stats_rows > 0 && r.stats_rows < boids::stats::MIN_SAMPLES {
        println!(
            "order parameter: no statistics over {} row{} of --stats (they need {} or more)",
            r.stats_rows,
            if r.stats_rows == 1 { "" } else { "s" },
            boids::stats::MIN_SAMPLES
        );
    }
    // τ_int of φ is a row above; whether the run and its batches are long enough for it.
    if let (Some(t), Some(_)) = (&r.tau_int, &r.order) {
        let rows = r.stats_rows as f64;
        let batch = rows / boids::stats::batch_count(r.stats_rows) as f64;
        if !t.converged {
            eprintln!(
                "warning: τ_int of φ did not converge within half the run ({} rows): the run is \
                 far too short for honest errors; run much longer",
                r.stats_rows
            );
        } else if rows < boids::stats::RUN_TAUS * t.tau {
            eprintln!(
                "warning: the run is {:.0} τ_int long, fewer than {}: its errors are not to be \
                 trusted; run longer",
                rows / t.tau,
                boids::stats::RUN_TAUS
            );
        } else if batch < boids::stats::BATCH_TAUS * t.tau {
            eprintln!(
                "warning: a batch of the errors is {:.1} τ_int long, fewer than {}: the errors \
                 are too small; run longer",
                batch / t.tau,
                boids::stats::BATCH_TAUS
            );
        }
    }
    if let Some((nf, snapshots)) = &r.fluctuations {
        println!(
            "number fluctuations over {snapshots} snapshot{}, {} box sizes (⟨n⟩ {}…{}): \
             ΔN ∝ ⟨n⟩^α with α = {:.3} ± {:.3} (spatial jackknife over {} regions; 1/2 for a \
             random gas)",
            if *snapshots == 1 { "" } else { "s" },
            nf.points.len(),
            nf.points.last().map_or(0.0, |p| p.mean_count).round(),
            nf.points.first().map_or(0.0, |p| p.mean_count).round(),
            nf.alpha,
            nf.alpha_error,
            nf.regions
        );
    }
    if let (Some((frames, bytes)), Some(path)) = (r.trajectory, &opts.trajectory) {
        println!(
            "{:<15} {frames} frame{} in {} ({bytes} bytes)",
            "trajectory:",
            if frames == 1 { "" } else { "s" },
            boids::io::show_path(path)
        );
    }
    if let Some((curves, states)) = &r.analyses {
        for line in boids::analysis::summary_lines(curves, |_| *states) {
            println!("{:<15} {line}", "analysis:");
        }
    }
    if r.interrupted {
        if !r.unfinished.is_empty() {
            eprintln!("error: {}", boids::run::RunError::Unfinished(r.unfinished));
        }
        println!("interrupted: the files asked for hold the state after the steps that ran");
        // 128 + SIGINT, so scripts can tell a partial run.
        std::process::exit(130);
    }
    match r.unfinished.is_empty() {
        true => Ok(()),
        false => Err(boids::run::RunError::Unfinished(r.unfinished)),
    }
}
