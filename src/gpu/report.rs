//! The adapter report of `boids info`: every adapter wgpu finds, with the limits that matter to
//! the simulation and the largest boid count they allow.

use crate::gpu::buffers::max_boids_for;
use crate::gpu::context::instance_from_env;
use crate::gpu::GpuError;

/// A report of every adapter (for `boids info`): backend, device type, driver and the limits that
/// matter to the simulation.
pub fn adapter_report() -> String {
    let instance = instance_from_env(wgpu::Backends::all());
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    if adapters.is_empty() {
        return GpuError::NoAdapter {
            detail: String::new(),
        }
        .to_string();
    }
    let mut out = String::new();
    for (k, a) in adapters.iter().enumerate() {
        let i = a.get_info();
        let l = a.limits();
        let max = max_boids_for(&l);
        let per_boid = crate::stages::bytes_per_boid();
        out += &format!(
            "adapter {k}: {}\n  backend {:?}, device type {:?}, vendor 0x{:04x}, device 0x{:04x}\n  \
             driver: {} {}\n  max_storage_buffer_binding_size: {} bytes\n  \
             max_buffer_size: {} bytes\n  max_compute_workgroups_per_dimension: {}\n  \
             max_compute_invocations_per_workgroup: {}\n  \
             max_compute_workgroup_storage_size: {} bytes\n  timestamp queries: {}\n  \
             boids: at most {} by the binding limits (16 bytes per item, 2 items per boid in a \
             wrapping world); {} bytes of GPU memory per boid (≈ {:.1} GiB at that count)\n  \
             the app's default backend on it: {}\n  neighbour gather: {}\n",
            i.name,
            i.backend,
            i.device_type,
            i.vendor,
            i.device,
            i.driver,
            i.driver_info,
            l.max_storage_buffer_binding_size,
            l.max_buffer_size,
            l.max_compute_workgroups_per_dimension,
            l.max_compute_invocations_per_workgroup,
            l.max_compute_workgroup_storage_size,
            a.features().contains(wgpu::Features::TIMESTAMP_QUERY),
            max,
            per_boid,
            (max * per_boid) as f64 / (1u64 << 30) as f64,
            if crate::gpu::context::cpu_backend_by_default(i.device_type) {
                "cpu (a software adapter: the CPU backend steps faster; --backend gpu to ask)"
            } else {
                "gpu"
            },
            match crate::gpu::Gather::choose(i.device_type, a.features()) {
                Ok(crate::gpu::Gather::Subgroup) =>
                    "subgroup (each candidate loaded once per subgroup; BOIDS_GATHER=invocation to change)".to_string(),
                Ok(crate::gpu::Gather::PerInvocation) => "per invocation".to_string(),
                Err(e) => format!("refused: {e}"),
            },
        );
    }
    out
}
