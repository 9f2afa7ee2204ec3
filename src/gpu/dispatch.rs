//! Dispatch sizes: a 1-D workload of `groups` workgroups is split over x and y when it exceeds the
//! per-dimension limit (65535 on most adapters); shaders rebuild the linear index with
//! `workgroup_linear` (`shaders/common.wgsl`) and skip the surplus.

/// Workgroup size of every compute stage (invocations).
pub const WORKGROUP_SIZE: u32 = 256;

/// Workgroups needed for `items` invocations.
pub fn groups_for(items: u32) -> u32 {
    items.div_ceil(WORKGROUP_SIZE)
}

/// `(x, y)` workgroup counts covering `groups` with `x ≤ max_per_dim`.
pub fn split(groups: u32, max_per_dim: u32) -> (u32, u32) {
    if groups == 0 {
        return (0, 0);
    }
    let x = groups.min(max_per_dim.max(1));
    (x, groups.div_ceil(x))
}

/// Records a dispatch of `groups` workgroups, split as [`split`].
pub fn dispatch(pass: &mut wgpu::ComputePass<'_>, groups: u32, max_per_dim: u32) {
    let (x, y) = split(groups, max_per_dim);
    if x > 0 {
        pass.dispatch_workgroups(x, y, 1);
    }
}
