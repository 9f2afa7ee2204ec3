//! What a capture records about where it was taken: the tool (version, git commit), the system
//! (OS, kernel, CPU model, threads) and the GPU adapter, plus the UTC timestamp.

use serde::{Deserialize, Serialize};
use time::format_description::BorrowedFormatItem;
use time::macros::{datetime, format_description};
use time::OffsetDateTime;

use crate::gpu::GpuContext;

/// The program that took the capture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolInfo {
    /// Crate name (`boids`).
    pub name: String,
    /// Crate version (`Cargo.toml`).
    pub version: String,
    /// `git rev-parse HEAD` of the checkout the binary was built from, recorded at build time
    /// (`build.rs`); `None` when it was not built from a git checkout (e.g. a crates.io tarball)
    /// or git was missing.
    pub git_commit: Option<String>,
    /// Whether, at build time, a tracked file compiled into the binary (`build.rs`, `Cargo.toml`,
    /// `Cargo.lock`, `src/`, `shaders/`) differed from that commit; `None` when unknown.
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
    /// GPU memory the simulation's buffers take per boid (bytes; the grid's cell counters, about
    /// 4 bytes per cell, come on top).
    pub bytes_per_boid: u64,
    /// How the neighbour gather loaded its candidates (`subgroup` or `invocation`:
    /// `crate::gpu::Gather`, `BOIDS_GATHER`); empty in a summary written before it was recorded.
    #[serde(default)]
    pub gather: String,
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
            bytes_per_boid: crate::stages::bytes_per_boid(),
            gather: ctx.gather().name().to_string(),
        }
    }
}

impl ToolInfo {
    /// This build's name, version, and the git commit and dirty flag recorded when it was built.
    pub fn current() -> ToolInfo {
        ToolInfo {
            name: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: option_env!("BOIDS_GIT_COMMIT").map(str::to_string),
            git_dirty: option_env!("BOIDS_GIT_DIRTY").map(|d| d == "true"),
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

/// RFC 3339 in UTC with whole seconds: `2026-11-30T12:04:55Z`.
const RFC3339_SECONDS: &[BorrowedFormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");

/// The same without separators, safe in a folder name: `20261130T120455Z`.
const FOLDER_STAMP: &[BorrowedFormatItem<'static>] =
    format_description!("[year][month][day]T[hour][minute][second]Z");

/// `secs` since the Unix epoch in `fmt`; a time past the year 9999 (which the formats cannot
/// write) is clamped to 9999-12-31T23:59:59Z.
fn utc(secs: u64, fmt: &[BorrowedFormatItem<'_>]) -> String {
    let t = i64::try_from(secs)
        .ok()
        .and_then(|s| OffsetDateTime::from_unix_timestamp(s).ok())
        .filter(|t| t.year() <= 9999)
        .unwrap_or(LAST_WRITABLE);
    // Cannot fail: every component the formats name exists on an `OffsetDateTime` in range.
    t.format(fmt).unwrap_or_default()
}

/// The last second the formats can write.
const LAST_WRITABLE: OffsetDateTime = datetime!(9999-12-31 23:59:59 UTC);

fn now_secs() -> u64 {
    u64::try_from(OffsetDateTime::now_utc().unix_timestamp()).unwrap_or(0)
}

/// RFC 3339 UTC time of `secs` since the epoch, e.g. `2026-11-30T12:04:55Z`.
pub fn rfc3339_utc(secs: u64) -> String {
    utc(secs, RFC3339_SECONDS)
}

/// The current time as [`rfc3339_utc`].
pub fn now_rfc3339() -> String {
    rfc3339_utc(now_secs())
}

/// A folder-name-safe UTC timestamp of `secs`, e.g. `20261130T120455Z` (the default capture
/// folder is `captures/<this>`).
pub fn folder_timestamp(secs: u64) -> String {
    utc(secs, FOLDER_STAMP)
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
        // Known answers from GNU date: `date -u -d @SECS +%FT%TZ` (and `+%s` for the reverse).
        let cases = [
            (0, "1970-01-01T00:00:00Z"),
            (951_827_696, "2000-02-29T12:34:56Z"),
            (1_700_000_000, "2023-11-14T22:13:20Z"),
            (1_709_251_199, "2024-02-29T23:59:59Z"),
            (1_796_040_295, "2026-11-30T12:04:55Z"),
            (4_102_444_800, "2100-01-01T00:00:00Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
        ];
        for (secs, want) in cases {
            assert_eq!(rfc3339_utc(secs), want, "{secs}");
            let folder: String = want.chars().filter(|c| !matches!(c, '-' | ':')).collect();
            assert_eq!(folder_timestamp(secs), folder, "{secs}");
        }
        assert_eq!(folder_timestamp(1_796_040_295), "20261130T120455Z");
        // Past what the formats can write: clamped, not garbled.
        assert_eq!(rfc3339_utc(u64::MAX), "9999-12-31T23:59:59Z");
        let now = now_rfc3339();
        assert!(
            now.len() == 20 && now.ends_with('Z') && now.as_str() > "2024",
            "{now}"
        );
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
