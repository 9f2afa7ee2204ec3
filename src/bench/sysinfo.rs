//! What a capture records about where it was taken: the tool (version, git commit), the system
//! (OS, kernel, CPU model, threads) and the GPU adapter, plus the UTC timestamp.

use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::gpu::GpuContext;

/// The program that took the capture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolInfo {
    /// Crate name (`boids`).
    pub name: String,
    /// Crate version (`Cargo.toml`).
    pub version: String,
    /// `git rev-parse HEAD` of the source tree the binary was built from (its path is recorded at
    /// build time), asked at run time; `None` when git or the tree is not there. It is the commit
    /// checked out *when the capture ran*, which is the built one unless the tree moved since.
    pub git_commit: Option<String>,
    /// Whether that tree had uncommitted changes to tracked files (`git status --porcelain
    /// --untracked-files=no` not empty); `None` when unknown.
    pub git_dirty: Option<bool>,
}

/// The machine the capture ran on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemInfo {
    /// `std::env::consts::OS` (`linux`, `macos`, `windows`).
    pub os: String,
    /// Distribution name (`PRETTY_NAME` of `/etc/os-release`) when known.
    pub os_release: Option<String>,
    /// Kernel release (`/proc/sys/kernel/osrelease`) when known.
    pub kernel: Option<String>,
    /// `std::env::consts::ARCH`.
    pub arch: String,
    /// CPU model (`model name` of `/proc/cpuinfo`) when known.
    pub cpu_model: Option<String>,
    /// Logical CPUs available to the process.
    pub logical_cpus: usize,
    /// Threads of rayon's pool (the CPU backends' parallelism).
    pub rayon_threads: usize,
}

/// The GPU adapter (wgpu's `AdapterInfo`, in words) and what matters to the benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdapterSummary {
    /// Adapter name (e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`).
    pub name: String,
    /// Graphics API backend (`Vulkan`, `Metal`, `Dx12`, `Gl`).
    pub backend: String,
    /// Device type (`DiscreteGpu`, `IntegratedGpu`, `Cpu`, …).
    pub device_type: String,
    /// Driver name.
    pub driver: String,
    /// Driver version / details.
    pub driver_info: String,
    /// PCI vendor id.
    pub vendor: u32,
    /// PCI device id.
    pub device: u32,
    /// Whether the device records timestamp queries (per-pass GPU times).
    pub timestamp_queries: bool,
    /// Largest boid count the adapter's buffer limits allow.
    pub max_boids: u64,
}

impl AdapterSummary {
    /// The summary of `ctx`'s adapter.
    pub fn of(ctx: &GpuContext) -> AdapterSummary {
        let i = &ctx.info;
        AdapterSummary {
            name: i.name.clone(),
            backend: format!("{:?}", i.backend),
            device_type: format!("{:?}", i.device_type),
            driver: i.driver.clone(),
            driver_info: i.driver_info.clone(),
            vendor: i.vendor,
            device: i.device,
            timestamp_queries: ctx.has_timestamps(),
            max_boids: crate::gpu::buffers::max_boids(ctx),
        }
    }
}

impl ToolInfo {
    /// This build's name, version and the git state of its source tree.
    pub fn current() -> ToolInfo {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let git = |args: &[&str]| -> Option<String> {
            let out = Command::new("git")
                .arg("-C")
                .arg(dir)
                .args(args)
                .output()
                .ok()?;
            out.status
                .success()
                .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        let git_commit = git(&["rev-parse", "HEAD"]).filter(|s| !s.is_empty());
        let git_dirty = git_commit.as_ref().and_then(|_| {
            git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty())
        });
        ToolInfo {
            name: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit,
            git_dirty,
        }
    }
}

impl SystemInfo {
    /// The current machine.
    pub fn current() -> SystemInfo {
        let read = |p: &str| std::fs::read_to_string(p).ok();
        let os_release = read("/etc/os-release").and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim_matches('"').to_string())
        });
        SystemInfo {
            os: std::env::consts::OS.to_string(),
            os_release,
            kernel: read("/proc/sys/kernel/osrelease").map(|s| s.trim().to_string()),
            arch: std::env::consts::ARCH.to_string(),
            cpu_model: read("/proc/cpuinfo").and_then(|t| cpu_model(&t)),
            logical_cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rayon_threads: rayon::current_num_threads(),
        }
    }
}

/// The CPU model named by `/proc/cpuinfo` text: the first `model name` (x86), else `Hardware` or
/// `cpu model` (some ARM and MIPS kernels). `None` when none is there.
pub fn cpu_model(cpuinfo: &str) -> Option<String> {
    ["model name", "Hardware", "cpu model"]
        .iter()
        .find_map(|key| {
            cpuinfo.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                (k.trim() == *key && !v.trim().is_empty()).then(|| v.trim().to_string())
            })
        })
}

/// Seconds since the Unix epoch as a UTC calendar date and time.
fn civil(secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        m,
        d,
        (rem / 3600) as u32,
        (rem / 60 % 60) as u32,
        (rem % 60) as u32,
    )
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// RFC 3339 UTC time of `secs` since the epoch, e.g. `2026-11-30T12:04:55Z`.
pub fn rfc3339_utc(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// The current time as [`rfc3339_utc`].
pub fn now_rfc3339() -> String {
    rfc3339_utc(now_secs())
}

/// A folder-name-safe UTC timestamp of `secs`, e.g. `20261130T120455Z` (the default capture
/// folder is `captures/<this>`).
pub fn folder_timestamp(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}Z")
}

/// The current time as [`folder_timestamp`].
pub fn now_folder_timestamp() -> String {
    folder_timestamp(now_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_formats() {
        assert_eq!(rfc3339_utc(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 (leap day) 12:34:56.
        assert_eq!(rfc3339_utc(951_827_696), "2000-02-29T12:34:56Z");
        assert_eq!(folder_timestamp(1_700_000_000), "20231114T221320Z");
    }

    #[test]
    fn cpu_model_lines() {
        let t = "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\n";
        assert_eq!(cpu_model(t).as_deref(), Some("Intel(R) Xeon(R) Processor"));
        assert_eq!(
            cpu_model("Hardware : BCM2835\n").as_deref(),
            Some("BCM2835")
        );
        assert_eq!(cpu_model("processor : 0\n"), None);
    }
}
