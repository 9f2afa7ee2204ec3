// Stage `scan`: exclusive prefix sum of a u32 array of any length, in place, by multi-level
// reduce-then-scan (portable: no inter-workgroup communication within a dispatch, so no
// forward-progress assumption). Per level k with blocks of SCAN_BLOCK elements:
//   scan_reduce:    sums[b] = Σ data[b*B .. (b+1)*B]            (one workgroup per block)
//   (recurse on sums until one block remains, then scan_block on it)
//   scan_downsweep: data[b*B + t] = exclusive_scan(block b)[t] + sums[b]
// Mirrors the CPU twin `scan` in src/cpu/stages.rs.

struct ScanLevel {
    len: u32,
}

const SCAN_BLOCK: u32 = 256u;

@group(0) @binding(0) var<uniform> level: ScanLevel;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;

var<workgroup> tile: array<u32, 256>;

// Inclusive Hillis–Steele scan of `tile`; every invocation of the workgroup must call it.
fn tile_inclusive_scan(lid: u32) {
    for (var offset = 1u; offset < SCAN_BLOCK; offset <<= 1u) {
        workgroupBarrier();
        var add = 0u;
        if (lid >= offset) {
            add = tile[lid - offset];
        }
        workgroupBarrier();
        tile[lid] += add;
    }
    workgroupBarrier();
}

fn load(i: u32) -> u32 {
    if (i < level.len) {
        return data[i];
    }
    return 0u;
}

@compute @workgroup_size(256)
fn scan_reduce(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let b = workgroup_linear(wid, nwg);
    tile[lid] = load(b * SCAN_BLOCK + lid);
    tile_inclusive_scan(lid);
    if (lid == SCAN_BLOCK - 1u && b * SCAN_BLOCK < level.len) {
        sums[b] = tile[lid];
    }
}

@compute @workgroup_size(256)
fn scan_block(@builtin(local_invocation_index) lid: u32) {
    let x = load(lid);
    tile[lid] = x;
    tile_inclusive_scan(lid);
    if (lid < level.len) {
        data[lid] = tile[lid] - x;
    }
}

@compute @workgroup_size(256)
fn scan_downsweep(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    let b = workgroup_linear(wid, nwg);
    let i = b * SCAN_BLOCK + lid;
    let x = load(i);
    tile[lid] = x;
    tile_inclusive_scan(lid);
    if (i < level.len) {
        data[i] = tile[lid] - x + sums[b];
    }
}
