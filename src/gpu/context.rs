//! Device creation: the adapter chosen by `WGPU_BACKEND` / `WGPU_ADAPTER_NAME` when set, else the
//! default (high performance) adapter; a device with the adapter's own limits and, when offered,
//! timestamp queries. wgpu errors are captured (never a panic) and reported by
//! [`GpuContext::take_error`].

use std::sync::{Arc, Mutex};

use crate::gpu::cache::{CacheStats, PipelineCache};
use crate::gpu::GpuError;

/// An adapter, its device and queue, a sink for uncaptured wgpu errors, and the compiled
/// pipelines of the device (shared by its clones).
#[derive(Clone)]
pub struct GpuContext {
    /// The wgpu instance.
    pub instance: wgpu::Instance,
    /// The adapter in use.
    pub adapter: wgpu::Adapter,
    /// The device (limits = the adapter's own).
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// The adapter's description.
    pub info: wgpu::AdapterInfo,
    errors: Arc<Mutex<Vec<String>>>,
    pipelines: Arc<Mutex<PipelineCache>>,
}

/// Whether the app steps on the CPU backend by default on an adapter of `device_type`: on a
/// software adapter (lavapipe, SwiftShader: device type Cpu) the CPU backend steps several times
/// faster than the compute shaders run there (10 000 boids: 0.8 against 5.6 ms a step on
/// lavapipe, two cores; docs/performance.md), and the adapter's threads are left to drawing.
/// A GPU keeps the compute shaders. `boids run --backend` overrides it.
pub fn cpu_backend_by_default(device_type: wgpu::DeviceType) -> bool {
    device_type == wgpu::DeviceType::Cpu
}

/// How the neighbour gather of the `rules` pass loads its candidates (docs/performance.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gather {
    /// Each invocation loads its own candidates (the design card's gather; the default on a GPU,
    /// where a candidate loaded by the invocations of one cell comes from cache).
    PerInvocation,
    /// Each candidate is loaded once per subgroup and shuffled to the invocations that need it
    /// (`shaders/gather_shared.wgsl`): the default on a software adapter (device type Cpu) that
    /// offers subgroups, where a load is a gather of a SIMD register's lanes and costs more than
    /// the arithmetic it feeds. Bit for bit the per-invocation sums.
    Subgroup,
}

impl Gather {
    /// The gather for an adapter of `device_type` with `features`: `BOIDS_GATHER` when set
    /// (`subgroup` or `invocation`), else [`Gather::Subgroup`] on a software adapter with
    /// subgroups and [`Gather::PerInvocation`] elsewhere.
    ///
    /// # Errors
    /// Another value of `BOIDS_GATHER`, or `subgroup` on an adapter without subgroups.
    pub fn choose(
        device_type: wgpu::DeviceType,
        features: wgpu::Features,
    ) -> Result<Gather, String> {
        let subgroups = features.contains(wgpu::Features::SUBGROUP);
        match std::env::var("BOIDS_GATHER").ok().as_deref() {
            None | Some("") => Ok(if subgroups && device_type == wgpu::DeviceType::Cpu {
                Gather::Subgroup
            } else {
                Gather::PerInvocation
            }),
            Some("invocation") => Ok(Gather::PerInvocation),
            Some("subgroup") if subgroups => Ok(Gather::Subgroup),
            Some("subgroup") => Err(
                "BOIDS_GATHER=subgroup: the adapter does not offer subgroups (wgpu feature \
                 SUBGROUP)"
                    .into(),
            ),
            Some(other) => Err(format!(
                "BOIDS_GATHER={other:?}: expected `subgroup` or `invocation`"
            )),
        }
    }

    /// Its name (as `BOIDS_GATHER` takes it).
    pub fn name(self) -> &'static str {
        match self {
            Gather::PerInvocation => "invocation",
            Gather::Subgroup => "subgroup",
        }
    }
}

/// A one-line description of an adapter: name, backend, device type, driver.
pub fn describe(info: &wgpu::AdapterInfo) -> String {
    format!(
        "{} ({:?}, {:?}, driver {} {})",
        info.name, info.backend, info.device_type, info.driver, info.driver_info
    )
}

/// An instance for the backends named by `WGPU_BACKEND`, else `fallback`.
pub fn instance_from_env(fallback: wgpu::Backends) -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    if std::env::var_os("WGPU_BACKEND").is_none() {
        desc.backends = fallback;
    }
    wgpu::Instance::new(desc)
}

/// Picks the adapter: the first whose name contains `WGPU_ADAPTER_NAME` (case-insensitive) when that
/// is set, else the default high-performance adapter (compatible with `surface` when given).
///
/// # Errors
/// [`GpuError::NoAdapter`] when none matches.
pub fn pick_adapter(
    instance: &wgpu::Instance,
    surface: Option<&wgpu::Surface<'_>>,
) -> Result<wgpu::Adapter, GpuError> {
    if let Ok(want) = std::env::var("WGPU_ADAPTER_NAME") {
        let want = want.to_lowercase();
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
        return adapters
            .into_iter()
            .find(|a| {
                a.get_info().name.to_lowercase().contains(&want)
                    && surface.is_none_or(|s| a.is_surface_supported(s))
            })
            .ok_or(GpuError::NoAdapter {
                detail: format!(" matching WGPU_ADAPTER_NAME={want:?} (adapters: {names:?})"),
            });
    }
    pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference:
            wgpu::PowerPreference::from_env().unwrap_or(wgpu::PowerPreference::HighPerformance),
        compatible_surface: surface,
        force_fallback_adapter: false,
        apply_limit_buckets: false,
    }))
    .map_err(|e| GpuError::NoAdapter {
        detail: format!(" ({e})"),
    })
}

impl GpuContext {
    /// A headless context (no surface).
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] or [`GpuError::Device`].
    pub fn new() -> Result<GpuContext, GpuError> {
        // The primary backends (Vulkan, Metal, DX12) first; OpenGL only when they offer nothing.
        let instance = instance_from_env(wgpu::Backends::PRIMARY);
        match pick_adapter(&instance, None) {
            Ok(adapter) => Self::from_adapter(instance, adapter),
            Err(_) => {
                let instance = instance_from_env(wgpu::Backends::all());
                let adapter = pick_adapter(&instance, None)?;
                Self::from_adapter(instance, adapter)
            }
        }
    }

    /// A context on a given adapter: requests the adapter's own limits (so large storage buffers
    /// are usable) and the timestamp-query features it offers (per pass, inside encoders and passes).
    ///
    /// # Errors
    /// [`GpuError::Device`].
    pub fn from_adapter(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
    ) -> Result<GpuContext, GpuError> {
        pollster::block_on(Self::from_adapter_async(instance, adapter))
    }

    /// [`GpuContext::from_adapter`] without blocking, for a caller that cannot block (a web
    /// page, whose device is granted by the browser's event loop).
    ///
    /// # Errors
    /// [`GpuError::Device`].
    pub async fn from_adapter_async(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
    ) -> Result<GpuContext, GpuError> {
        let limits = adapter.limits();
        Self::with_limits(instance, adapter, limits).await
    }

    /// A context on `adapter` whose device is held to `limits` (each at most the adapter's)
    /// rather than the adapter's own: with [`webgpu_limits`], the device every WebGPU adapter
    /// grants, so that a native run finds a pipeline or binding the web could not create
    /// (wgpu validates against the device's limits, not the adapter's).
    ///
    /// # Errors
    /// [`GpuError::Device`], also when a limit is beyond the adapter's.
    pub async fn with_limits(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
        limits: wgpu::Limits,
    ) -> Result<GpuContext, GpuError> {
        let info = adapter.get_info();
        // Timestamps when offered, and subgroups for the shared gather.
        let features = adapter.features()
            & (wgpu_profiler::GpuProfiler::ALL_WGPU_TIMER_FEATURES | wgpu::Features::SUBGROUP);
        let gather =
            Gather::choose(info.device_type, features).map_err(|message| GpuError::Device {
                adapter: info.name.clone(),
                message,
            })?;
        check_limits(&limits, &info.name)?;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("boids"),
                required_features: features,
                required_limits: limits,
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::Device {
                adapter: info.name.clone(),
                message: e.to_string(),
            })?;
        let errors: Arc<Mutex<Vec<String>>> = Arc::default();
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut v) = sink.lock() {
                v.push(e.to_string());
            }
        }));
        let ctx = GpuContext {
            instance,
            adapter,
            device,
            queue,
            info,
            errors,
            pipelines: Arc::default(),
        };
        ctx.with_pipeline_cache(|c| c.set_shared_gather(gather == Gather::Subgroup));
        Ok(ctx)
    }

    /// The first wgpu error captured since the last call, if any (validation, out of memory).
    ///
    /// # Errors
    /// [`GpuError::Wgpu`] with every captured message.
    pub fn take_error(&self) -> Result<(), GpuError> {
        let mut v = self
            .errors
            .lock()
            .map_err(|e| GpuError::Wgpu(e.to_string()))?;
        if v.is_empty() {
            Ok(())
        } else {
            let msg = v.join("\n");
            v.clear();
            Err(GpuError::Wgpu(msg))
        }
    }

    /// Runs `f` on the device's pipeline cache (a poisoned lock still holds valid pipelines).
    pub fn with_pipeline_cache<T>(&self, f: impl FnOnce(&mut PipelineCache) -> T) -> T {
        let mut cache = self
            .pipelines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut cache)
    }

    /// The gather the device's pipelines are compiled with.
    pub fn gather(&self) -> Gather {
        if self.with_pipeline_cache(|c| c.shared_gather()) {
            Gather::Subgroup
        } else {
            Gather::PerInvocation
        }
    }

    /// Compiles the pipelines of backends made from now on with `gather` (those made before
    /// keep theirs).
    ///
    /// # Errors
    /// [`GpuError::Device`] for [`Gather::Subgroup`] on a device without subgroups.
    pub fn set_gather(&self, gather: Gather) -> Result<(), GpuError> {
        if gather == Gather::Subgroup && !self.device.features().contains(wgpu::Features::SUBGROUP)
        {
            return Err(GpuError::Device {
                adapter: self.info.name.clone(),
                message: "the shared gather needs subgroups (wgpu feature SUBGROUP)".into(),
            });
        }
        self.with_pipeline_cache(|c| c.set_shared_gather(gather == Gather::Subgroup));
        Ok(())
    }

    /// What the device's pipeline cache has compiled and reused so far.
    pub fn pipeline_stats(&self) -> CacheStats {
        self.with_pipeline_cache(|c| c.stats())
    }

    /// Whether `count` may bin the boids by the cell words the previous step's `rules` wrote
    /// (`cells_known`): the word comes from the position in `rules`' registers, while `scatter`
    /// finds the same cell again from the position it loads, and the two agree bit for bit only
    /// where the shader compiler may not reassociate floating-point arithmetic. Vulkan's SPIR-V
    /// allows the contraction of a·b + c alone (the cell is a product and a floor), so the words
    /// are used there; on Metal (fast math on), DX12, GL and a browser's WebGPU `count` finds
    /// every cell from the position, as before the words.
    pub fn cell_words_exact(&self) -> bool {
        self.info.backend == wgpu::Backend::Vulkan
    }

    /// Whether the device records timestamp queries (per-pass GPU times).
    pub fn has_timestamps(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// One line describing the adapter.
    pub fn describe(&self) -> String {
        describe(&self.info)
    }

    /// Waits for all submitted work.
    ///
    /// # Errors
    /// [`GpuError::Wgpu`] when the device is lost or a captured error is pending.
    pub fn wait(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Wgpu(e.to_string()))?;
        self.take_error()
    }
}

/// The limits every WebGPU adapter grants (the WebGPU specification's defaults, wgpu's
/// [`wgpu::Limits::default`]): eight storage buffers a shader stage, 128 MiB storage bindings,
/// 16 KiB of workgroup memory, 256 invocations a workgroup. The simulation's stages and the
/// renderer are built to run within them (tested natively through [`GpuContext::with_limits`]).
pub fn webgpu_limits() -> wgpu::Limits {
    wgpu::Limits::default()
}

/// Refuses an adapter whose limits the stages exceed, naming the limit: the largest stage binds
/// [`crate::stages::STORAGE_BINDINGS_MAX`] storage buffers, what WebGPU guarantees (every WebGPU
/// adapter, desktop GPUs and lavapipe pass; an OpenGL ES adapter may offer 4).
///
/// # Errors
/// [`GpuError::Device`] naming `max_storage_buffers_per_shader_stage`, its value and the need.
///
/// See also [`webgpu_limits`].
pub fn check_limits(limits: &wgpu::Limits, adapter: &str) -> Result<(), GpuError> {
    let need = crate::stages::STORAGE_BINDINGS_MAX as u32;
    if limits.max_storage_buffers_per_shader_stage < need {
        return Err(GpuError::Device {
            adapter: adapter.to_string(),
            message: format!(
                "its max_storage_buffers_per_shader_stage is {}, and the simulation's stages bind \
                 up to {need} storage buffers each (use another adapter or browser, or the CPU \
                 backend of the native app)",
                limits.max_storage_buffers_per_shader_stage
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn an_adapter_with_too_few_storage_buffers_is_refused_naming_the_limit() {
        let mut l = wgpu::Limits {
            max_storage_buffers_per_shader_stage: 4,
            ..Default::default()
        };
        let e = check_limits(&l, "small").unwrap_err().to_string();
        assert!(
            e.contains("max_storage_buffers_per_shader_stage is 4") && e.contains("small"),
            "{e}"
        );
        l.max_storage_buffers_per_shader_stage = crate::stages::STORAGE_BINDINGS_MAX as u32 - 1;
        assert!(check_limits(&l, "one short").is_err());
        l.max_storage_buffers_per_shader_stage = crate::stages::STORAGE_BINDINGS_MAX as u32;
        assert!(check_limits(&l, "enough").is_ok());
        // Every WebGPU adapter is enough.
        assert!(check_limits(&webgpu_limits(), "webgpu").is_ok());
    }
}
