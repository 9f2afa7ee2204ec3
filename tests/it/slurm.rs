//! The cluster path end to end: `examples/slurm/sweep.sbatch` submitted as an array job, the shard
//! folders merged with `boids sweep merge`, the result compared byte for byte with one unsharded
//! run; and a cancelled array task makes the merge refuse the incomplete set.
//!
//! Needs a Slurm cluster (`scripts/slurm-local.sh start` brings up a one-node one). Without
//! `sbatch`, or without a controller that answers, the tests say SKIPPED — unless
//! `BOIDS_REQUIRE_SLURM=1` (CI), where they fail. When `SLURM_CONF` is not set and
//! `/tmp/boids-slurm/slurm.conf` (the local cluster's) exists, that one is used.

use crate::support;
use support::cmd::{self, text};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The sweep submitted: a small Vicsek noise sweep (CPU backend: bit-for-bit reproducible, so the
/// merged table equals a local run's). 300 particles in the scene's L ≈ 31.6 box, 7 values of η.
const SCENE: Option<&str> = Some("scenes/vicsek.toml");
const PARAM: &str = "vicsek_eta";
const VALUES: &str = "0:6:1";
const BOIDS: &str = "300";
const STEPS: &str = "60";
const DISCARD: &str = "20";
const BACKEND: &str = "cpu";
/// Array tasks (= shards).
const TASKS: u32 = 3;
/// Longest wait for an array job.
const TIMEOUT: Duration = Duration::from_secs(150);

fn sweep_args() -> Vec<String> {
    let mut v: Vec<String> = [
        "--param",
        PARAM,
        "--values",
        VALUES,
        "--boids",
        BOIDS,
        "--steps",
        STEPS,
        "--discard",
        DISCARD,
        "--backend",
        BACKEND,
    ]
    .map(String::from)
    .to_vec();
    if let Some(s) = SCENE {
        v.push("--scene".into());
        v.push(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(s)
                .display()
                .to_string(),
        );
    }
    v
}

/// A Slurm client command with the cluster's configuration.
fn slurm(cmd: &str) -> Command {
    let mut c = Command::new(cmd);
    if std::env::var_os("SLURM_CONF").is_none() {
        let local = Path::new("/tmp/boids-slurm/slurm.conf");
        if local.is_file() {
            c.env("SLURM_CONF", local);
        }
    }
    c
}

/// Whether a cluster is there; skips (prints SKIPPED) or fails under `BOIDS_REQUIRE_SLURM=1`.
fn cluster() -> bool {
    let require = std::env::var("BOIDS_REQUIRE_SLURM").as_deref() == Ok("1");
    let why = match slurm("sbatch").arg("--version").output() {
        Err(_) => Some("sbatch not found".to_string()),
        Ok(_) => match slurm("sinfo").args(["-h", "-o", "%T"]).output() {
            Ok(o) if o.status.success() && !o.stdout.is_empty() => None,
            Ok(o) => Some(format!(
                "no Slurm controller answers (sinfo: {})",
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => Some(format!("sinfo does not run: {e}")),
        },
    };
    match why {
        None => true,
        Some(w) if require => panic!("BOIDS_REQUIRE_SLURM=1 but {w}"),
        Some(w) => {
            // Straight to stderr: the harness hides eprintln! output of passing tests.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "SKIPPED: {w}");
            false
        }
    }
}

/// A line for the CI log, straight to stderr (the harness hides `eprintln!` of passing tests).
fn log(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "slurm: {line}");
}

/// Submits the example as an array job of [`TASKS`] tasks writing under `dir`; `hold` keeps it
/// pending until released. Returns the job id.
fn submit(dir: &Path, hold: bool) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/slurm/sweep.sbatch");
    let mut c = slurm("sbatch");
    c.arg("--parsable")
        .arg(format!("--array=1-{TASKS}"))
        .arg("--cpus-per-task=1")
        .arg(format!("--output={}/slurm-%A_%a.out", dir.display()))
        .arg(format!("--chdir={}", dir.display()))
        .env("BOIDS", env!("CARGO_BIN_EXE_boids"))
        .env("SWEEP_DIR", dir.join("run"));
    if hold {
        c.arg("--hold");
    }
    let o = c.arg(&script).args(sweep_args()).output().unwrap();
    assert!(o.status.success(), "sbatch: {}", text(&o));
    let id = String::from_utf8_lossy(&o.stdout).trim().to_string();
    id.split(';').next().unwrap().to_string()
}

/// The job's task logs, for failure messages.
fn logs(dir: &Path) -> String {
    let mut out = String::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        let mut names: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        names.sort();
        for p in names
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "out"))
        {
            out += &format!(
                "--- {} ---\n{}\n",
                p.display(),
                std::fs::read_to_string(&p).unwrap_or_default()
            );
        }
    }
    out
}

/// Waits until no task of `job` is pending or running; returns the JobState of each task.
fn wait(job: &str, dir: &Path) -> Vec<String> {
    let t0 = Instant::now();
    loop {
        let o = slurm("squeue")
            .args(["-h", "-j", job, "-o", "%i %T"])
            .output()
            .unwrap();
        let left = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if o.status.success() && left.is_empty() {
            break;
        }
        if t0.elapsed() > TIMEOUT {
            let _ = slurm("scancel").arg(job).status();
            panic!(
                "job {job} still queued after {TIMEOUT:?}:\n{left}\n{}\n{}",
                text(&o),
                logs(dir)
            );
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    let o = slurm("scontrol")
        .args(["-o", "show", "job", job])
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| {
            let task = l.split(' ').find_map(|w| w.strip_prefix("ArrayTaskId="))?;
            let state = l.split(' ').find_map(|w| w.strip_prefix("JobState="))?;
            Some(format!("{task}:{state}"))
        })
        .collect()
}

#[test]
fn array_job_shards_merge_to_the_unsharded_sweep() {
    if !cluster() {
        return;
    }
    let _alone = support::alone::machine();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let job = submit(dir, false);
    let mut states = wait(&job, dir);
    states.sort();
    let want: Vec<String> = (1..=TASKS).map(|i| format!("{i}:COMPLETED")).collect();
    assert_eq!(states, want, "job {job}:\n{}", logs(dir));
    log(&format!(
        "array job {job} ran {TASKS} tasks: {}",
        states.join(", ")
    ));
    let run = dir.join("run");
    let shards: Vec<String> = (1..=TASKS)
        .map(|i| run.join(format!("shard-{i}")).display().to_string())
        .collect();
    let merged = dir.join("merged");
    let mut args = vec!["sweep", "merge", merged.to_str().unwrap()];
    args.extend(shards.iter().map(|s| s.as_str()));
    let o = cmd::run(&args);
    assert!(o.status.success(), "merge: {}\n{}", text(&o), logs(dir));
    let local = dir.join("local");
    let mut args: Vec<String> = vec!["sweep".into()];
    args.extend(sweep_args());
    args.extend(["--quiet", "--out", local.to_str().unwrap()].map(String::from));
    let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let o = cmd::run(&args);
    assert!(o.status.success(), "local run: {}", text(&o));
    let a = std::fs::read_to_string(local.join("sweep.csv")).unwrap();
    let b = std::fs::read_to_string(merged.join("sweep.csv")).unwrap();
    assert_eq!(a, b, "the merged array job differs from the local run");
    assert!(a.lines().count() > TASKS as usize, "too few rows:\n{a}");
    log(&format!(
        "the merged sweep.csv of {TASKS} shards equals the unsharded run byte for byte ({} rows)",
        a.lines().count() - 1
    ));
}

#[test]
fn a_cancelled_task_makes_the_merge_refuse() {
    if !cluster() {
        return;
    }
    let _alone = support::alone::machine();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Held, so task 2 is cancelled before it starts; then the others run.
    let job = submit(dir, true);
    let o = slurm("scancel").arg(format!("{job}_2")).output().unwrap();
    assert!(o.status.success(), "scancel: {}", text(&o));
    let o = slurm("scontrol").args(["release", &job]).output().unwrap();
    assert!(o.status.success(), "scontrol release: {}", text(&o));
    let states = wait(&job, dir);
    assert!(
        states.contains(&"1:COMPLETED".to_string()) && states.contains(&"3:COMPLETED".to_string()),
        "job {job}: {states:?}\n{}",
        logs(dir)
    );
    let run = dir.join("run");
    assert!(!run.join("shard-2").exists(), "the cancelled task ran");
    let merged = dir.join("merged");
    let o = cmd::run(&[
        "sweep",
        "merge",
        merged.to_str().unwrap(),
        run.join("shard-1").to_str().unwrap(),
        run.join("shard-3").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "merge of an incomplete set succeeded: {}",
        text(&o)
    );
    assert!(
        err.contains(&format!("shard 2/{TASKS} is missing")) && err.contains("--shard 2/3"),
        "{err}"
    );
    log(&format!(
        "job {job} with task 2 cancelled: the merge refused it: {}",
        err.lines().next().unwrap_or("")
    ));
    assert!(!merged.exists());
}
