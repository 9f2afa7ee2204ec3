// Stage `scan`: exclusive prefix sum of a u32 array of any length, in place, by multi-level
// reduce-then-scan (portable: no inter-workgroup communication within a dispatch, so no
// forward-progress assumption). A block is SCAN_BLOCK = 256 invocations × SCAN_PER elements; each
// invocation adds its SCAN_PER consecutive elements serially, so a workgroup's barriers serve 2048
// elements. Per level k:
//   scan_reduce:    sums[b] = Σ data[b*B .. (b+1)*B]            (one workgroup per block)
//   (recurse on sums until one block remains, then scan_block on it)
//   scan_downsweep: data[b*B + t] = exclusive_scan(block b)[t] + sums[b]
// Mirrors the CPU twin `scan` in src/stages/twins/scan.rs.

struct ScanLevel {
    len: u32,
}

const SCAN_THREADS: u32 = 256u;
const SCAN_PER: u32 = 8u;
const SCAN_BLOCK: u32 = 2048u;

@group(0) @binding(0) var<uniform> level: ScanLevel;
@group(0) @binding(1) var<storage, read_write> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;

var<workgroup> tile: array<u32, 256>;
// The other half of the double-buffered scan (`tile_inclusive_scan`).
var<workgroup> tile_b: array<u32, 256>;

// Inclusive Hillis–Steele scan of `tile`, double-buffered (each level reads one buffer and
// writes the other: one barrier a level, not two; a software adapter switches every invocation
// of the workgroup at each barrier); every invocation of the workgroup must call it. The
// result is in `tile`: SCAN_THREADS = 2^8, an even number of levels.
fn tile_inclusive_scan(lid: u32) {
    var level = 0u;
    for (var offset = 1u; offset < SCAN_THREADS; offset <<= 1u) {
        workgroupBarrier();
        if ((level & 1u) == 0u) {
            tile_b[lid] = tile[lid] + select(0u, tile[lid - min(offset, lid)], lid >= offset);
        } else {
            tile[lid] = tile_b[lid] + select(0u, tile_b[lid - min(offset, lid)], lid >= offset);
        }
        level += 1u;
    }
    workgroupBarrier();
}

// The sum of `tile` (into tile[0]) by a tree of halves: one barrier a level; every invocation of
// the workgroup must call it.
fn tile_sum(lid: u32) {
    for (var half = SCAN_THREADS / 2u; half > 0u; half >>= 1u) {
        workgroupBarrier();
        if (lid < half) {
            tile[lid] += tile[lid + half];
        }
    }
    workgroupBarrier();
}

fn load(i: u32) -> u32 {
    if (i < level.len) {
        return data[i];
    }
    return 0u;
}

// Loads this invocation's SCAN_PER elements of block b, leaves their exclusive prefix in `local`
// and their total in tile[lid].
fn load_run(b: u32, lid: u32, local: ptr<function, array<u32, 8>>) {
    let first = b * SCAN_BLOCK + lid * SCAN_PER;
    var run = 0u;
    for (var k = 0u; k < SCAN_PER; k++) {
        let x = load(first + k);
        (*local)[k] = run;
        run += x;
    }
    tile[lid] = run;
}

// Writes block b: each element's exclusive prefix within the block plus `offset`.
fn store_run(b: u32, lid: u32, local: ptr<function, array<u32, 8>>, offset: u32) {
    let first = b * SCAN_BLOCK + lid * SCAN_PER;
    // tile holds inclusive sums of the invocations' totals: the exclusive one is the previous.
    var before = offset;
    if (lid > 0u) {
        before += tile[lid - 1u];
    }
    for (var k = 0u; k < SCAN_PER; k++) {
        if (first + k < level.len) {
            data[first + k] = before + (*local)[k];
        }
    }
}

@compute @workgroup_size(256)
fn scan_reduce(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let b = workgroup_linear(wid, nwg);
    var local: array<u32, 8>;
    load_run(b, lid, &local);
    tile_sum(lid);
    if (lid == 0u && b * SCAN_BLOCK < level.len) {
        sums[b] = tile[0];
    }
}

@compute @workgroup_size(256)
fn scan_block(@builtin(local_invocation_index) lid: u32) {
    var local: array<u32, 8>;
    load_run(0u, lid, &local);
    tile_inclusive_scan(lid);
    store_run(0u, lid, &local, 0u);
}

@compute @workgroup_size(256)
fn scan_downsweep(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    let b = workgroup_linear(wid, nwg);
    var local: array<u32, 8>;
    load_run(b, lid, &local);
    tile_inclusive_scan(lid);
    if (b * SCAN_BLOCK < level.len) {
        store_run(b, lid, &local, sums[b]);
    }
}
