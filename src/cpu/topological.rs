//! The topological search of the CPU backend's `rules` stage, fast for `topological_k ≤ 8`
//! ([`SMALL_K`]) on x86-64 CPUs with AVX2: the reference twin's search
//! ([`topological_nearest`](crate::stages::twins::rules::topological_nearest), docs/model.md
//! §19.2) — the 5 × 5 block of cells around the boid's cell, then ring by ring until the k-th
//! nearest is certain, by the same stopping rule — with the candidates' keys computed eight at a
//! time and the k nearest held in vector registers.
//!
//! **Why.** The reference offers its candidates one by one to a sorted list: at the default density
//! about half of a boid's 14 or so candidates enter the list of 7, each at a place the branch
//! predictor cannot guess, and each key costs a minimum image with two branches; and the block's
//! candidates lie in five runs of two or three items. Here:
//! - the block's candidates are copied together once per cell ([`Block`]: positions, ids and
//!   sorted indices, one array each), shared by the boids of the cell (consecutive in the sorted
//!   order), and walked eight at a time: offsets, minimum image (by blends) and squared distance
//!   for the eight lanes at once;
//! - up to 32 of them are ranked at once, each one's rank the count of the others nearer, 8 lanes
//!   of squared distances to a register (when two distances tie, which random positions almost
//!   never do but lattices do, by the 64-bit keys instead, 4 to a register); those of rank < k
//!   are the k nearest, in order. No branch and no chain of insertions;
//! - further candidates (a block of more than 32, or the later rings) are inserted into eight
//!   sorted slots (two registers of keys, two of indices) without a branch: slot `i` keeps its
//!   entry when it is nearer than the new one, else takes the new one when slot `i − 1` is nearer
//!   (or `i` is 0), else the entry of slot `i − 1`;
//! - the later rings (a few boids in a hundred in a uniform flock need one, with the grid's cells
//!   of [`TOPOLOGICAL_GRID_SCALE`]) are walked run by run of cells, nearest rows first, a run
//!   skipped when its nearest possible candidate is farther than the k-th nearest (under the
//!   margin of [`block_bound2`]);
//! - the sums ([`topological_sums_small`]) read the k neighbours' rows, transpose them into 8
//!   lanes, compute each neighbour's terms at once and add them as vectors in the reference's
//!   order.
//!
//! **Same result.** The keys are the reference's bit for bit ([`topo_d2`], [`topo_key`]: the same
//! IEEE single-precision operations in the same order, no fused multiply-add), each candidate is
//! offered once, and the k smallest of distinct keys do not depend on the order they are offered
//! in; the search stops after the same step as the reference. So the selection, and everything
//! computed from it, equals the reference's (`tests/it/topological.rs` compares the lists over the
//! same cases as brute force, and the sums bit for bit; `tests/it/cpu_backend.rs` the steps). Other
//! CPUs, and `topological_k` above 8, take the reference's search.
//!
//! Measured in `cargo bench --bench topological_search` (the search and the sums alone, ns a
//! boid) and `cargo bench --bench extremes -- neighborhoods` (whole steps against the metric
//! neighbourhood's); figures in docs/performance.md.
//!
//! [`topo_d2`]: crate::model::rules::topo_d2
//! [`topo_key`]: crate::model::rules::topo_key
//! [`block_bound2`]: crate::model::grid::block_bound2
//! [`TOPOLOGICAL_GRID_SCALE`]: crate::model::derive::TOPOLOGICAL_GRID_SCALE

use crate::cpu::gather_simd::SortedLanes;
use crate::model::grid::Grid;
use crate::model::rules::NeighborSums;
use crate::model::uniforms::StepUniforms;
use crate::stages::twins::SortedRef;

/// Largest `topological_k` of the fast search.
pub const SMALL_K: usize = 8;

/// Whether this CPU runs the fast search (AVX2, detected at run time).
pub fn fast_search_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The candidates of the first step of the search around one cell — the boids of its 5 × 5
/// block of cells, in the search's order — copied together: positions, ids and sorted indices,
/// one array each, each followed by 8 spare values. Kept from one boid to the next while the cell
/// is the same (the boids of a cell are consecutive in the sorted order); one per rayon task.
#[derive(Clone, Debug, Default)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub struct Block {
    /// The cell the candidates are for (`None` before the first, and after a new step).
    cell: Option<(u32, u32)>,
    /// The grid's cell sides (wu): `(W / cols, H / rows)`.
    cells: (f32, f32),
    x: Vec<f32>,
    y: Vec<f32>,
    id: Vec<u32>,
    index: Vec<u32>,
    len: usize,
}

impl Block {
    /// No candidates yet.
    pub fn new() -> Block {
        Block::default()
    }

    /// Makes room for `m` more candidates (and the 8 spare values).
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn reserve(&mut self, m: usize) {
        let need = self.len + m + SMALL_K;
        if self.x.len() < need {
            let size = need.max(2 * self.x.len()).max(64);
            self.x.resize(size, 0.0);
            self.y.resize(size, 0.0);
            self.id.resize(size, 0);
            self.index.resize(size, 0);
        }
    }
}

/// The k ≤ 8 nearest of a boid as [`topological_nearest_small`] finds them: `len` of them (fewer
/// than k only when fewer other boids exist), ascending by key
/// ([`topo_key`](crate::model::rules::topo_key): squared distance above id), each with its sorted
/// index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nearest8 {
    len: usize,
    keys: [u64; SMALL_K],
    index: [u32; SMALL_K],
}

impl Nearest8 {
    /// The number found.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether none was found.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The selected candidates, nearest first: (squared distance, id, sorted index), as
    /// [`TopoNearest::selected`](crate::model::rules::TopoNearest::selected) gives them.
    pub fn selected(&self) -> impl Iterator<Item = (f32, u32, u32)> + '_ {
        self.keys[..self.len]
            .iter()
            .zip(&self.index[..self.len])
            .map(|(&key, &j)| (f32::from_bits((key >> 32) as u32), key as u32, j))
    }

    /// Writes the ids to the `k` slots of a boid's recorded topological neighbours (`u32::MAX`
    /// past the last), as [`record_ids`](crate::stages::twins::rules::record_ids) does.
    pub fn record_ids(&self, slots: &mut [u32]) {
        for (t, slot) in slots.iter_mut().enumerate() {
            *slot = if t < self.len {
                self.keys[t] as u32
            } else {
                u32::MAX
            };
        }
    }
}

/// Checks what the fast search and sums rely on (see [`topological_nearest_small`]).
fn check(s: usize, lanes: &SortedLanes, ids: &[u32], k: usize) {
    assert!((1..=SMALL_K).contains(&k), "k = {k} is not in 1 ..= 8");
    assert!(fast_search_available(), "the fast search needs AVX2");
    assert!(
        s < lanes.len() && lanes.len() <= ids.len(),
        "item {s} beyond the {} sorted items",
        lanes.len()
    );
}

/// The topological neighbours of sorted item `s` (`k = u.topological_k`): the reference's
/// [`topological_nearest`](crate::stages::twins::rules::topological_nearest), fast (see the
/// module documentation). `block` is the task's cache of block candidates, `lanes` the sorted
/// items transposed, `ids` their ids, `cells` the cell starts.
///
/// # Panics
/// If `k` is 0 or above [`SMALL_K`], the CPU lacks AVX2 ([`fast_search_available`]), `s` is not
/// an item, or `cells` does not end at the number of items.
#[allow(clippy::too_many_arguments)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub fn topological_nearest_small(
    s: usize,
    block: &mut Block,
    lanes: &SortedLanes,
    ids: &[u32],
    cells: &[u32],
    grid: &Grid,
    u: &StepUniforms,
) -> Nearest8 {
    let k = u.topological_k as usize;
    check(s, lanes, ids, k);
    assert_eq!(
        cells.last().copied(),
        Some(lanes.len() as u32),
        "the cell starts are those of the items"
    );
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has AVX2 (checked); `s` is an item and every run of cells lies within the
    // items (the cell starts end at their number, asserted).
    unsafe {
        avx2::nearest(s, block, lanes, ids, cells, grid, u, k)
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("checked: no fast search here")
}

/// The neighbour sums of sorted item `s` over its topological neighbours `near`: the
/// reference's [`topological_sums`](crate::stages::twins::rules::topological_sums) bit for bit —
/// the neighbours' rows read and transposed into 8 lanes, each neighbour's terms computed for the
/// 8 at once (the same operations as
/// [`accumulate_parts`](crate::model::rules::accumulate_parts), lane by lane: minimum image,
/// squared distance, the radii's masks, the separation term's division), then added in the same
/// order, nearest first.
///
/// # Panics
/// If `k` is 0 or above [`SMALL_K`], the CPU lacks AVX2, or `s` or a neighbour is not an item.
pub fn topological_sums_small(
    s: usize,
    near: &Nearest8,
    sorted: SortedRef<'_>,
    u: &StepUniforms,
) -> NeighborSums {
    let k = u.topological_k as usize;
    assert!((1..=SMALL_K).contains(&k), "k = {k} is not in 1 ..= 8");
    assert!(fast_search_available(), "the fast sums need AVX2");
    let items = sorted.pos_vel.len().min(sorted.hue.len());
    assert!(
        s < items && near.index[..near.len].iter().all(|&j| (j as usize) < items),
        "a boid or a neighbour beyond the {items} sorted items"
    );
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has AVX2; `s` and every neighbour are items (asserted).
    unsafe {
        avx2::sums(s, near, sorted, u)
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("asserted: no fast sums here")
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use glam::Vec2;

    use crate::cpu::gather_simd::SortedLanes;
    use crate::model::grid::{block_bound2_with, search_frame, Grid, FIRST_RINGS};
    use crate::model::rules::{NeighborSums, COINCIDENT_EPS2};
    use crate::model::uniforms::StepUniforms;
    use crate::stages::twins::SortedRef;

    use crate::cpu::topological::{Block, Nearest8, SMALL_K};

    /// An empty slot: larger than every key (a key's squared distance is a finite float ≥ 0,
    /// whose bits are below 2³¹, so every key is below 2⁶³ and compares alike signed).
    const EMPTY: i64 = i64::MAX;

    /// The 8 nearest candidates seen so far, ascending by key
    /// ([`topo_key`](crate::model::rules::topo_key)), [`EMPTY`] in the slots not yet filled: keys of slots
    /// 0–3 and 4–7, and each one's candidate (sorted) index as a 64-bit integer.
    #[derive(Clone, Copy)]
    struct Slots {
        keys: [__m256i; 2],
        index: [__m256i; 2],
        /// The key of slot `k − 1`: the key a candidate must beat to be among the k nearest.
        bound: i64,
    }

    impl Slots {
        #[inline]
        #[target_feature(enable = "avx2")]
        fn new() -> Slots {
            Slots {
                keys: [_mm256_set1_epi64x(EMPTY); 2],
                index: [_mm256_setzero_si256(); 2],
                bound: EMPTY,
            }
        }

        /// Sets the slots to `keys` (ascending, `EMPTY` past the filled ones) and `index`.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn set(&mut self, keys: &[i64], index: &[i64], k: usize) {
            assert!(keys.len() == SMALL_K && index.len() == SMALL_K, "8 slots");
            // SAFETY: 8 values in each (asserted); unaligned loads.
            unsafe {
                self.keys = [
                    _mm256_loadu_si256(keys.as_ptr().cast()),
                    _mm256_loadu_si256(keys.as_ptr().add(4).cast()),
                ];
                self.index = [
                    _mm256_loadu_si256(index.as_ptr().cast()),
                    _mm256_loadu_si256(index.as_ptr().add(4).cast()),
                ];
            }
            self.bound = keys[k - 1];
        }

        /// Sets `bound` to the key of slot `k − 1`.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn refresh_bound(&mut self, k: usize) {
            let mut keys = [0i64; SMALL_K];
            // SAFETY: 8 i64 fit `keys`; unaligned stores.
            unsafe {
                _mm256_storeu_si256(keys.as_mut_ptr().cast(), self.keys[0]);
                _mm256_storeu_si256(keys.as_mut_ptr().add(4).cast(), self.keys[1]);
            }
            self.bound = keys[k - 1];
        }

        /// The slots as arrays: (keys, indices).
        #[inline]
        #[target_feature(enable = "avx2")]
        fn to_arrays(self) -> ([i64; SMALL_K], [i64; SMALL_K]) {
            let (mut keys, mut index) = ([0i64; SMALL_K], [0i64; SMALL_K]);
            // SAFETY: 8 i64 fit each array; unaligned stores.
            unsafe {
                _mm256_storeu_si256(keys.as_mut_ptr().cast(), self.keys[0]);
                _mm256_storeu_si256(keys.as_mut_ptr().add(4).cast(), self.keys[1]);
                _mm256_storeu_si256(index.as_mut_ptr().cast(), self.index[0]);
                _mm256_storeu_si256(index.as_mut_ptr().add(4).cast(), self.index[1]);
            }
            (keys, index)
        }

        /// Inserts candidate `j` of key `key` at its place, the largest falling out, without a
        /// branch. Slot `i`'s new entry: its own when its key is smaller than `key`, else `key`
        /// when slot `i − 1`'s is smaller (or `i` is 0), else slot `i − 1`'s. Keys are distinct
        /// (they hold the ids).
        #[inline]
        #[target_feature(enable = "avx2")]
        fn insert(&mut self, key: i64, j: i64) {
            let kv = _mm256_set1_epi64x(key);
            let jv = _mm256_set1_epi64x(j);
            let [k0, k1] = self.keys;
            let [i0, i1] = self.index;
            // The entries one slot up: [new, k0, k1, k2] and [k3, k4, k5, k6].
            let up0 = _mm256_blend_epi32::<0b0000_0011>(_mm256_permute4x64_epi64::<0x90>(k0), kv);
            let up1 = _mm256_blend_epi32::<0b0000_0011>(
                _mm256_permute4x64_epi64::<0x93>(k1),
                _mm256_permute4x64_epi64::<0xFF>(k0),
            );
            let iup0 = _mm256_blend_epi32::<0b0000_0011>(_mm256_permute4x64_epi64::<0x90>(i0), jv);
            let iup1 = _mm256_blend_epi32::<0b0000_0011>(
                _mm256_permute4x64_epi64::<0x93>(i1),
                _mm256_permute4x64_epi64::<0xFF>(i0),
            );
            // Slot i − 1 nearer than the new one: the new one goes to slot i (the first slot's
            // "slot before" is the new one itself, not nearer: the new one).
            let before0 = _mm256_cmpgt_epi64(kv, up0);
            let before1 = _mm256_cmpgt_epi64(kv, up1);
            let stay0 = _mm256_cmpgt_epi64(kv, k0);
            let stay1 = _mm256_cmpgt_epi64(kv, k1);
            let m0 = _mm256_blendv_epi8(up0, kv, before0);
            let m1 = _mm256_blendv_epi8(up1, kv, before1);
            let n0 = _mm256_blendv_epi8(iup0, jv, before0);
            let n1 = _mm256_blendv_epi8(iup1, jv, before1);
            self.keys = [
                _mm256_blendv_epi8(m0, k0, stay0),
                _mm256_blendv_epi8(m1, k1, stay1),
            ];
            self.index = [
                _mm256_blendv_epi8(n0, i0, stay0),
                _mm256_blendv_epi8(n1, i1, stay1),
            ];
        }
    }

    /// The geometry of one boid's search: its position in each lane, the world's sides, their
    /// halves and their negated halves (for the minimum image), whether the world wraps.
    #[derive(Clone, Copy)]
    struct Here {
        px: __m256,
        py: __m256,
        w: __m256,
        h: __m256,
        hw: __m256,
        hh: __m256,
        lw: __m256,
        lh: __m256,
        wrap: bool,
        /// The world's sides (wu).
        side: (f32, f32),
    }

    impl Here {
        /// The keys of 8 candidates at `x`, `y` with ids `id`, as the reference computes them:
        /// the offset from the boid, its minimum image (`if d > W/2 { d − W } else if d < −W/2
        /// { d + W }`, by blends), the squared distance `dx·dx + dy·dy`, its bits above the id.
        /// Lanes 0–3, then 4–7.
        #[inline]
        #[target_feature(enable = "avx2")]
        fn keys(&self, x: __m256, y: __m256, id: __m256i) -> [__m256i; 2] {
            let bits = self.d2_bits(x, y);
            let key_of = |bits: __m128i, id: __m128i| {
                _mm256_or_si256(
                    _mm256_slli_epi64::<32>(_mm256_cvtepu32_epi64(bits)),
                    _mm256_cvtepu32_epi64(id),
                )
            };
            [
                key_of(_mm256_castsi256_si128(bits), _mm256_castsi256_si128(id)),
                key_of(
                    _mm256_extracti128_si256::<1>(bits),
                    _mm256_extracti128_si256::<1>(id),
                ),
            ]
        }

        /// The bits of the squared distances of [`Here::keys`] (a float ≥ 0: its bits order
        /// as it does).
        #[inline]
        #[target_feature(enable = "avx2")]
        fn d2_bits(&self, x: __m256, y: __m256) -> __m256i {
            let mut dx = _mm256_sub_ps(x, self.px);
            let mut dy = _mm256_sub_ps(y, self.py);
            if self.wrap {
                let gx = _mm256_cmp_ps::<_CMP_GT_OQ>(dx, self.hw);
                let lx = _mm256_cmp_ps::<_CMP_LT_OQ>(dx, self.lw);
                let x2 = _mm256_blendv_ps(dx, _mm256_sub_ps(dx, self.w), gx);
                dx = _mm256_blendv_ps(x2, _mm256_add_ps(dx, self.w), lx);
                let gy = _mm256_cmp_ps::<_CMP_GT_OQ>(dy, self.hh);
                let ly = _mm256_cmp_ps::<_CMP_LT_OQ>(dy, self.lh);
                let y2 = _mm256_blendv_ps(dy, _mm256_sub_ps(dy, self.h), gy);
                dy = _mm256_blendv_ps(y2, _mm256_add_ps(dy, self.h), ly);
            }
            let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
            _mm256_castps_si256(d2)
        }
    }

    /// The lanes (bits 0–7) whose key beats `bound`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn beating(key: &[__m256i; 2], bound: i64) -> u32 {
        let b = _mm256_set1_epi64x(bound);
        let lo = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(b, key[0])));
        let hi = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(b, key[1])));
        (lo | (hi << 4)) as u32
    }

    /// Inserts the lanes `enter` of `key` into `slots`, lane `l` as candidate `index(l)`, then
    /// refreshes the bound.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn insert_lanes(
        slots: &mut Slots,
        k: usize,
        key: &[__m256i; 2],
        mut enter: u32,
        index: impl Fn(usize) -> i64,
    ) {
        if enter == 0 {
            return;
        }
        let mut keys = [0i64; SMALL_K];
        // SAFETY: 8 i64 fit `keys`.
        unsafe {
            _mm256_storeu_si256(keys.as_mut_ptr().cast(), key[0]);
            _mm256_storeu_si256(keys.as_mut_ptr().add(4).cast(), key[1]);
        }
        while enter != 0 {
            let l = enter.trailing_zeros() as usize;
            enter &= enter - 1;
            slots.insert(keys[l], index(l));
        }
        slots.refresh_bound(k);
    }

    /// Offers sorted items `a .. b` (a run of cells), eight at a time, item `s` left out.
    ///
    /// # Safety
    /// `a ≤ b ≤` the items of `xs` and `ys` (each followed by 8 readable values) and of `ids`.
    #[inline]
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn offer_run(
        slots: &mut Slots,
        k: usize,
        (a, b): (usize, usize),
        s: usize,
        here: &Here,
        xs: *const f32,
        ys: *const f32,
        ids: &[u32],
    ) {
        let mut j0 = a;
        while j0 < b {
            let live = (b - j0).min(SMALL_K);
            // SAFETY: `j0 < b` ≤ the items, each field followed by 8 values.
            let (x, y) = unsafe { (_mm256_loadu_ps(xs.add(j0)), _mm256_loadu_ps(ys.add(j0))) };
            let id = if j0 + SMALL_K <= ids.len() {
                // SAFETY: 8 ids from `j0` (checked).
                unsafe { _mm256_loadu_si256(ids.as_ptr().add(j0).cast()) }
            } else {
                let mut id = [0u32; SMALL_K];
                for (l, v) in id.iter_mut().enumerate().take(live) {
                    *v = ids[j0 + l];
                }
                // SAFETY: 8 u32 in `id`.
                unsafe { _mm256_loadu_si256(id.as_ptr().cast()) }
            };
            let key = here.keys(x, y, id);
            let mut enter = beating(&key, slots.bound) & ((1u32 << live) - 1);
            if (j0..j0 + live).contains(&s) {
                enter &= !(1u32 << (s - j0));
            }
            insert_lanes(slots, k, &key, enter, |l| (j0 + l) as i64);
            j0 += SMALL_K;
        }
    }

    /// Chunks of 8 candidates of the block ranked at once (more are inserted one by one).
    const RANKED_CHUNKS: usize = 4;

    /// Defines `$name::<R>(regs, values) -> [$out; 32]`: each value's rank among `values` (the
    /// same values, in order, held in `regs[..R]` as lanes of `$elem`): how many are smaller;
    /// the first `lanes·R` of the result are the lanes of `regs[..R]`. The rank of lane `i` is
    /// counted down by the comparison masks (−1 where `value_i > value_j`), for every `j` at once.
    macro_rules! ranks_fn {
        ($name:ident, $elem:ty, $out:ty, $lanes:expr, $set1:ident, $sub:ident, $gt:ident) => {
            #[inline]
            #[target_feature(enable = "avx2")]
            fn $name<const R: usize>(
                regs: &[__m256i],
                values: &[$elem],
            ) -> [$out; SMALL_K * RANKED_CHUNKS] {
                let regs: &[__m256i; R] = regs[..R].try_into().expect("R registers");
                let mut rank = [_mm256_setzero_si256(); R];
                for &vj in values {
                    let b = $set1(vj);
                    for (r, v) in rank.iter_mut().zip(regs) {
                        *r = $sub(*r, $gt(*v, b));
                    }
                }
                let mut out = [0 as $out; SMALL_K * RANKED_CHUNKS];
                for (q, r) in rank.iter().enumerate() {
                    // SAFETY: `lanes` values at `lanes·q < lanes·R ≤ 32` in an array of 32.
                    unsafe { _mm256_storeu_si256(out.as_mut_ptr().add($lanes * q).cast(), *r) };
                }
                out
            }
        };
    }
    // The 64-bit keys, 4 to a register; the squared distances' bits, 8 to a register.
    ranks_fn!(
        ranks,
        i64,
        i64,
        4,
        _mm256_set1_epi64x,
        _mm256_sub_epi64,
        _mm256_cmpgt_epi64
    );
    ranks_fn!(
        ranks32,
        i32,
        u32,
        8,
        _mm256_set1_epi32,
        _mm256_sub_epi32,
        _mm256_cmpgt_epi32
    );

    /// Runs of cells offered in one batch (a frame row adds at most 4: two column segments,
    /// each split at the seam).
    const RUNS: usize = 32;

    /// One axis of a search: the boid's cell `c` and position `pos` (wu), the axis's cells `n`,
    /// side `len` (wu) and cell side (wu), whether it wraps.
    #[derive(Clone, Copy)]
    struct Axis {
        c: i32,
        pos: f32,
        n: i32,
        cell: f32,
        wrap: bool,
    }

    impl Axis {
        /// The distance (wu) from the boid to the cells of offsets `a ..= b` from its own, at
        /// least; 0 when they hold its cell, or when the axis wraps and a frame of half-width
        /// `outer` might reach a cell by both ways round (`2·outer + 2 > n`: the offsets are then
        /// no minimum image). In the form of [`block_bound2`]'s sides, so under the same margin.
        #[inline(always)]
        fn gap(&self, a: i32, b: i32, outer: u32) -> f32 {
            if self.wrap && 2 * outer as i64 + 2 > self.n as i64 {
                0.0
            } else if a > 0 {
                (self.c + a) as f32 * self.cell - self.pos
            } else if b < 0 {
                self.pos - (self.c + b + 1) as f32 * self.cell
            } else {
                0.0
            }
        }

        /// The cell of offset `x` (in `−n .. 2n`) from the boid's cell, wrapped.
        #[inline(always)]
        fn wrapped(&self, x: i32) -> i32 {
            let x = self.c + x;
            if x < 0 {
                x + self.n
            } else if x >= self.n {
                x - self.n
            } else {
                x
            }
        }
    }

    /// The smallest squared distance a candidate at gaps `(gx, gy)` (wu) from the boid can have
    /// in f32, less the margins of [`block_bound2`] (1e-6 of the world's larger side on each gap,
    /// 2⁻²⁰ relative): a run of cells with a larger bound than the k-th nearest holds no nearer
    /// candidate, and is skipped.
    #[inline(always)]
    fn least_d2(gx: f32, gy: f32, margin: f32) -> f32 {
        let mx = (gx - margin).max(0.0);
        let my = (gy - margin).max(0.0);
        (mx * mx + my * my) * (1.0 - 1.0 / 1_048_576.0)
    }

    /// Fills `block` with the candidates of the first step around cell `(cx, cy)`: the runs of
    /// cells of the frame of [`search_frame`]`(0)`, in order, copied 8 items at a time.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn fill(block: &mut Block, (cx, cy): (u32, u32), grid: &Grid, cells: &[u32], items: Items) {
        let Items { xs, ys, ids, n, .. } = items;
        block.cell = Some((cx, cy));
        block.cells = (
            items.side.0 / grid.cols as f32,
            items.side.1 / grid.rows as f32,
        );
        block.len = 0;
        let (inner, r) = search_frame(0);
        let f = grid.frame(cx, cy, inner, r);
        let step = _mm256_set1_epi32(SMALL_K as i32);
        for t in 0..f.rows() {
            grid.for_each_frame_range(&f, t, |first, last| {
                let (i, j) = (
                    cells[first as usize] as usize,
                    cells[last as usize + 1] as usize,
                );
                assert!(i <= j && j <= n, "a run beyond the items");
                let m = j - i;
                block.reserve(m);
                let at = block.len;
                let mut index = _mm256_add_epi32(
                    _mm256_set1_epi32(i as i32),
                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                );
                for c in (0..m).step_by(SMALL_K) {
                    // SAFETY: items `i + c ..` lie within the items, whose fields are followed
                    // by 8 values; the block has room for 8 values from `at + c < at + m`
                    // (reserved).
                    unsafe {
                        let to = at + c;
                        _mm256_storeu_ps(
                            block.x.as_mut_ptr().add(to),
                            _mm256_loadu_ps(xs.as_ptr().add(i + c)),
                        );
                        _mm256_storeu_ps(
                            block.y.as_mut_ptr().add(to),
                            _mm256_loadu_ps(ys.as_ptr().add(i + c)),
                        );
                        _mm256_storeu_si256(block.index.as_mut_ptr().add(to).cast(), index);
                        if i + c + SMALL_K <= ids.len() {
                            _mm256_storeu_si256(
                                block.id.as_mut_ptr().add(to).cast(),
                                _mm256_loadu_si256(ids.as_ptr().add(i + c).cast()),
                            );
                        } else {
                            block.id[at + c..at + m].copy_from_slice(&ids[i + c..i + m]);
                        }
                    }
                    index = _mm256_add_epi32(index, step);
                }
                block.len += m;
            });
        }
    }

    /// The sorted items the search reads: their positions (each field followed by 8 values),
    /// their ids and their number.
    #[derive(Clone, Copy)]
    struct Items<'a> {
        xs: &'a [f32],
        ys: &'a [f32],
        ids: &'a [u32],
        n: usize,
        /// The world's sides (wu).
        side: (f32, f32),
    }

    /// See [`super::topological_nearest_small`].
    ///
    /// # Safety
    /// The CPU must have AVX2; `s < lanes.len() ≤ ids.len()`, `1 ≤ k ≤ 8`, `cells` the cell
    /// starts of these items (ending at their number).
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn nearest(
        s: usize,
        block: &mut Block,
        lanes: &SortedLanes,
        ids: &[u32],
        cells: &[u32],
        grid: &Grid,
        u: &StepUniforms,
        k: usize,
    ) -> Nearest8 {
        let items = Items {
            xs: lanes.field(0),
            ys: lanes.field(1),
            ids,
            n: lanes.len(),
            side: (u.world_width, u.world_height),
        };
        let (xs, ys) = (items.xs, items.ys);
        let p = Vec2::new(xs[s], ys[s]);
        let (cx, cy) = grid.cell_xy(p);
        let (w, h) = (u.world_width, u.world_height);
        let wrap = u.boundary == 0;
        let here = Here {
            px: _mm256_set1_ps(p.x),
            py: _mm256_set1_ps(p.y),
            w: _mm256_set1_ps(w),
            h: _mm256_set1_ps(h),
            hw: _mm256_set1_ps(0.5 * w),
            hh: _mm256_set1_ps(0.5 * h),
            lw: _mm256_set1_ps(-0.5 * w),
            lh: _mm256_set1_ps(-0.5 * h),
            wrap,
            side: (w, h),
        };
        // The first step: the block's candidates, copied together once per cell.
        if block.cell != Some((cx, cy)) {
            fill(block, (cx, cy), grid, cells, items);
        }
        let me = _mm256_set1_epi32(s as i32);
        // Block candidates `c .. c + 8`: positions, ids, sorted indices, and which lanes are
        // candidates (within the block, not the boid itself: −1 lanes).
        let lanes_at = |c: usize| {
            // SAFETY: `c < block.len`; every array of the block holds 8 values past its length.
            let (x, y, id, index) = unsafe {
                (
                    _mm256_loadu_ps(block.x.as_ptr().add(c)),
                    _mm256_loadu_ps(block.y.as_ptr().add(c)),
                    _mm256_loadu_si256(block.id.as_ptr().add(c).cast()),
                    _mm256_loadu_si256(block.index.as_ptr().add(c).cast()),
                )
            };
            let live = _mm256_cmpgt_epi32(
                _mm256_set1_epi32((block.len - c) as i32),
                _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
            );
            let valid = _mm256_andnot_si256(_mm256_cmpeq_epi32(index, me), live);
            (x, y, id, index, valid)
        };
        // The block's keys, 8 at a time; the lanes past the block and the boid itself are
        // `EMPTY`.
        let chunk = |c: usize| {
            let (x, y, id, index, valid) = lanes_at(c);
            let key = here.keys(x, y, id);
            let empty = _mm256_set1_epi64x(EMPTY);
            let lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(valid));
            let hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(valid));
            (
                [
                    _mm256_blendv_epi8(empty, key[0], lo),
                    _mm256_blendv_epi8(empty, key[1], hi),
                ],
                [
                    _mm256_cvtepu32_epi64(_mm256_castsi256_si128(index)),
                    _mm256_cvtepu32_epi64(_mm256_extracti128_si256::<1>(index)),
                ],
            )
        };
        // Up to 32 candidates (all blocks but a few at the default density): each one's rank
        // among them (how many keys are smaller), counted for all at once; those of rank < 8
        // fill the slots in rank order. No branch and no chain of insertions.
        let chunks = block.len.div_ceil(SMALL_K).min(RANKED_CHUNKS);
        let ranked = block.len.min(chunks * SMALL_K);
        let mut best_key = [EMPTY; SMALL_K + 1];
        let mut best_index = [0i64; SMALL_K + 1];
        // First by the squared distances alone, 8 to a register: when no two are equal their
        // order is the keys' order; a tie (rare but for lattices) takes the keys' ranking below.
        let ranked_by_distance = chunks > 0 && {
            let m = SMALL_K * chunks;
            let mut d = [i32::MAX; SMALL_K * RANKED_CHUNKS];
            let mut block_id = [0u32; SMALL_K * RANKED_CHUNKS];
            let mut at = [0u32; SMALL_K * RANKED_CHUNKS];
            let mut regs = [_mm256_set1_epi32(i32::MAX); RANKED_CHUNKS];
            for (c, reg) in regs.iter_mut().enumerate().take(chunks) {
                let o = SMALL_K * c;
                let (x, y, id, index, valid) = lanes_at(o);
                *reg = _mm256_blendv_epi8(_mm256_set1_epi32(i32::MAX), here.d2_bits(x, y), valid);
                // SAFETY: 8 values at `o < 8 · chunks` in the local arrays of `8 · RANKED_CHUNKS`.
                unsafe {
                    _mm256_storeu_si256(d.as_mut_ptr().add(o).cast(), *reg);
                    _mm256_storeu_si256(at.as_mut_ptr().add(o).cast(), index);
                    _mm256_storeu_si256(block_id.as_mut_ptr().add(o).cast(), id);
                }
            }
            let rank = match chunks {
                1 => ranks32::<1>(&regs, &d[..m]),
                2 => ranks32::<2>(&regs, &d[..m]),
                3 => ranks32::<3>(&regs, &d[..m]),
                _ => ranks32::<4>(&regs, &d[..m]),
            };
            let (mut seen, mut valid) = (0u32, 0u32);
            for l in 0..m {
                let live = d[l] != i32::MAX;
                valid += live as u32;
                seen |= (live as u32) << rank[l];
                let to = if live {
                    (rank[l] as usize).min(SMALL_K)
                } else {
                    SMALL_K
                };
                best_key[to] = ((d[l] as i64) << 32) | block_id[l] as i64;
                best_index[to] = at[l] as i64;
            }
            best_key[SMALL_K] = EMPTY;
            // Every valid candidate a rank of its own: no tie.
            seen.count_ones() == valid
        };
        if chunks > 0 && !ranked_by_distance {
            best_key = [EMPTY; SMALL_K + 1];
            let mut keys = [_mm256_set1_epi64x(EMPTY); 2 * RANKED_CHUNKS];
            let mut key = [EMPTY; SMALL_K * RANKED_CHUNKS];
            let mut index = [0i64; SMALL_K * RANKED_CHUNKS];
            for c in 0..chunks {
                let (kv, iv) = chunk(c * SMALL_K);
                keys[2 * c] = kv[0];
                keys[2 * c + 1] = kv[1];
                // SAFETY: 8 i64 at `8c` in arrays of `8 · RANKED_CHUNKS`.
                unsafe {
                    let at = SMALL_K * c;
                    _mm256_storeu_si256(key.as_mut_ptr().add(at).cast(), kv[0]);
                    _mm256_storeu_si256(key.as_mut_ptr().add(at + 4).cast(), kv[1]);
                    _mm256_storeu_si256(index.as_mut_ptr().add(at).cast(), iv[0]);
                    _mm256_storeu_si256(index.as_mut_ptr().add(at + 4).cast(), iv[1]);
                }
            }
            let m = SMALL_K * chunks;
            let rank = match chunks {
                1 => ranks::<2>(&keys, &key[..m]),
                2 => ranks::<4>(&keys, &key[..m]),
                3 => ranks::<6>(&keys, &key[..m]),
                _ => ranks::<8>(&keys, &key[..m]),
            };
            // Slot 8 takes the candidates of rank 8 and more, and the empty lanes.
            for l in 0..m {
                let at = if key[l] == EMPTY {
                    SMALL_K
                } else {
                    (rank[l] as usize).min(SMALL_K)
                };
                best_key[at] = key[l];
                best_index[at] = index[l];
            }
            best_key[SMALL_K] = EMPTY;
        }
        let certain = |bound: i64, r: u32| {
            let bound2 = block_bound2_with(grid, p, (cx, cy), r, (w, h), block.cells);
            bound2 == f32::MAX || (bound != EMPTY && f32::from_bits((bound >> 32) as u32) < bound2)
        };
        // The rest of a larger block, 8 at a time, and the later rings, inserted into the slots
        // (in registers; read from the arrays only here, where they are needed: a vector read
        // of values just stored one by one waits for the stores).
        if block.len > ranked || !certain(best_key[k - 1], FIRST_RINGS) {
            let mut slots = Slots::new();
            slots.set(&best_key[..SMALL_K], &best_index[..SMALL_K], k);
            let mut c = ranked;
            while c < block.len {
                let (key, index) = chunk(c);
                let enter = beating(&key, slots.bound);
                let mut at = [0i64; SMALL_K];
                // SAFETY: 4 i64 at 0 and at 4 in an array of 8.
                unsafe {
                    _mm256_storeu_si256(at.as_mut_ptr().cast(), index[0]);
                    _mm256_storeu_si256(at.as_mut_ptr().add(4).cast(), index[1]);
                }
                insert_lanes(&mut slots, k, &key, enter, |l| at[l]);
                c += SMALL_K;
            }
            if !certain(slots.bound, FIRST_RINGS) {
                later_rings(
                    &mut slots,
                    k,
                    s,
                    p,
                    (cx, cy),
                    &here,
                    grid,
                    (cells, block.cells),
                    items,
                );
            }
            let (keys, index) = slots.to_arrays();
            best_key[..SMALL_K].copy_from_slice(&keys);
            best_index[..SMALL_K].copy_from_slice(&index);
        }
        let mut out = Nearest8::default();
        for (t, (&key, &j)) in best_key[..k].iter().zip(&best_index[..k]).enumerate() {
            out.keys[t] = key as u64;
            out.index[t] = j as u32;
            out.len += (key != EMPTY) as usize;
        }
        out
    }

    /// See [`super::topological_sums_small`].
    ///
    /// # Safety
    /// The CPU must have AVX2; `s` and every neighbour of `near` are items of `sorted`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn sums(
        s: usize,
        near: &Nearest8,
        sorted: SortedRef<'_>,
        u: &StepUniforms,
    ) -> NeighborSums {
        let n = near.len;
        // The neighbours' `[x, y, vx, vy]` and `[hx, hy, ux, uy]`, 8 rows of 4 each, transposed
        // into 4 vectors of 8 lanes; the lanes past the neighbours read the boid itself (any
        // item would do).
        let rows = |a: &[[f32; 4]]| {
            let r = |l: usize| {
                let j = if l < n { near.index[l] as usize } else { s };
                // SAFETY: 4 f32 at item `j` of `a`.
                unsafe { _mm_loadu_ps(a[j].as_ptr()) }
            };
            let t0 = _mm256_set_m128(r(4), r(0));
            let t1 = _mm256_set_m128(r(5), r(1));
            let t2 = _mm256_set_m128(r(6), r(2));
            let t3 = _mm256_set_m128(r(7), r(3));
            let (u0, u1) = (_mm256_unpacklo_ps(t0, t1), _mm256_unpackhi_ps(t0, t1));
            let (u2, u3) = (_mm256_unpacklo_ps(t2, t3), _mm256_unpackhi_ps(t2, t3));
            [
                _mm256_shuffle_ps::<0x44>(u0, u2),
                _mm256_shuffle_ps::<0xEE>(u0, u2),
                _mm256_shuffle_ps::<0x44>(u1, u3),
                _mm256_shuffle_ps::<0xEE>(u1, u3),
            ]
        };
        let [x, y, vx, vy] = rows(sorted.pos_vel);
        let [hx, hy, ux, uy] = rows(sorted.hue);
        let me = sorted.pos_vel[s];
        let (w, h) = (u.world_width, u.world_height);
        let mut dx = _mm256_sub_ps(x, _mm256_set1_ps(me[0]));
        let mut dy = _mm256_sub_ps(y, _mm256_set1_ps(me[1]));
        if u.boundary == 0 {
            let (wv, hv) = (_mm256_set1_ps(w), _mm256_set1_ps(h));
            let gx = _mm256_cmp_ps::<_CMP_GT_OQ>(dx, _mm256_set1_ps(0.5 * w));
            let lx = _mm256_cmp_ps::<_CMP_LT_OQ>(dx, _mm256_set1_ps(-0.5 * w));
            let x2 = _mm256_blendv_ps(dx, _mm256_sub_ps(dx, wv), gx);
            dx = _mm256_blendv_ps(x2, _mm256_add_ps(dx, wv), lx);
            let gy = _mm256_cmp_ps::<_CMP_GT_OQ>(dy, _mm256_set1_ps(0.5 * h));
            let ly = _mm256_cmp_ps::<_CMP_LT_OQ>(dy, _mm256_set1_ps(-0.5 * h));
            let y2 = _mm256_blendv_ps(dy, _mm256_sub_ps(dy, hv), gy);
            dy = _mm256_blendv_ps(y2, _mm256_add_ps(dy, hv), ly);
        }
        let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
        let below = |r2: f32| _mm256_cmp_ps::<_CMP_LT_OQ>(d2, _mm256_set1_ps(r2));
        let eps = _mm256_set1_ps(COINCIDENT_EPS2);
        // The model's declared pair terms (docs/model.md §4.7), as `accumulate_parts` takes
        // them: a weighted sum counts a neighbour with a direction only, each band from its
        // inner edge.
        let far = _mm256_cmp_ps::<_CMP_GT_OQ>(d2, eps);
        let all = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
        let direction = |w: u32| if w == 0 { all } else { far };
        let from = |r2: f32| _mm256_cmp_ps::<_CMP_GE_OQ>(d2, _mm256_set1_ps(r2));
        let sep = _mm256_and_ps(below(u.separation_r2), direction(u.separation_weight));
        let ali = _mm256_and_ps(below(u.alignment_r2), from(u.alignment_inner_r2));
        let coh = _mm256_and_ps(
            _mm256_and_ps(below(u.cohesion_r2), from(u.cohesion_inner_r2)),
            direction(u.cohesion_weight),
        );
        let hm = below(u.hue_r2);
        let one = _mm256_set1_ps(1.0);
        let times = |v: __m256, m: __m256| _mm256_mul_ps(v, _mm256_and_ps(m, one));
        let m = _mm256_max_ps(d2, eps);
        // `pair_weight`: d, d / √max(d², ε) or d / max(d², ε).
        let weigh = |w: u32, d: __m256| match w {
            0 => d,
            1 => _mm256_div_ps(d, _mm256_sqrt_ps(m)),
            _ => _mm256_div_ps(d, m),
        };
        // The terms of accumulate_parts: separation w_s(d) · mask, alignment v · mask,
        // cohesion w_c(d) · mask, hue h · mask and u · mask.
        let terms = [
            times(weigh(u.separation_weight, dx), sep),
            times(weigh(u.separation_weight, dy), sep),
            times(vx, ali),
            times(vy, ali),
            times(weigh(u.cohesion_weight, dx), coh),
            times(weigh(u.cohesion_weight, dy), coh),
            times(hx, hm),
            times(hy, hm),
            times(ux, hm),
            times(uy, hm),
        ];
        // Added neighbour by neighbour as vectors of the 8 first sums (separation negated: x − t
        // is x + (−t) exactly), the hue velocity's two apart; lane by lane the same additions
        // as the reference's, so the same bits.
        let neg = _mm256_set1_ps(-0.0);
        let per_neighbour = transpose8([
            _mm256_xor_ps(terms[0], neg),
            _mm256_xor_ps(terms[1], neg),
            terms[2],
            terms[3],
            terms[4],
            terms[5],
            terms[6],
            terms[7],
        ]);
        let mut hue_velocity = [[0f32; SMALL_K]; 2];
        // SAFETY: 8 f32 in each.
        unsafe {
            _mm256_storeu_ps(hue_velocity[0].as_mut_ptr(), terms[8]);
            _mm256_storeu_ps(hue_velocity[1].as_mut_ptr(), terms[9]);
        }
        let bits = |m: __m256| _mm256_movemask_ps(m) as u32;
        let inside = bits(below(u.perception_r2)) & ((1u32 << n) - 1);
        let mut acc = _mm256_setzero_ps();
        let mut out = NeighborSums::default();
        for (l, row) in per_neighbour.iter().enumerate().take(n) {
            if inside >> l & 1 == 0 {
                continue;
            }
            acc = _mm256_add_ps(acc, *row);
            out.hue_velocity.x += hue_velocity[0][l];
            out.hue_velocity.y += hue_velocity[1][l];
        }
        let mut first = [0f32; SMALL_K];
        // SAFETY: 8 f32 in `first`.
        unsafe { _mm256_storeu_ps(first.as_mut_ptr(), acc) };
        out.separation = Vec2::new(first[0], first[1]);
        out.alignment = Vec2::new(first[2], first[3]);
        out.cohesion = Vec2::new(first[4], first[5]);
        out.hue = Vec2::new(first[6], first[7]);
        out.alignment_n = (bits(ali) & inside).count_ones();
        out.cohesion_n = (bits(coh) & inside).count_ones();
        out.hue_n = (bits(hm) & inside).count_ones();
        out.neighbors = inside.count_ones();
        out
    }

    /// The 8 × 8 transpose: lane `l` of vector `c` to lane `c` of vector `l`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn transpose8(r: [__m256; 8]) -> [__m256; 8] {
        let t0 = _mm256_unpacklo_ps(r[0], r[1]);
        let t1 = _mm256_unpackhi_ps(r[0], r[1]);
        let t2 = _mm256_unpacklo_ps(r[2], r[3]);
        let t3 = _mm256_unpackhi_ps(r[2], r[3]);
        let t4 = _mm256_unpacklo_ps(r[4], r[5]);
        let t5 = _mm256_unpackhi_ps(r[4], r[5]);
        let t6 = _mm256_unpacklo_ps(r[6], r[7]);
        let t7 = _mm256_unpackhi_ps(r[6], r[7]);
        let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let s1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let s3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let s4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let s5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let s6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let s7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        [
            _mm256_permute2f128_ps::<0x20>(s0, s4),
            _mm256_permute2f128_ps::<0x20>(s1, s5),
            _mm256_permute2f128_ps::<0x20>(s2, s6),
            _mm256_permute2f128_ps::<0x20>(s3, s7),
            _mm256_permute2f128_ps::<0x31>(s0, s4),
            _mm256_permute2f128_ps::<0x31>(s1, s5),
            _mm256_permute2f128_ps::<0x31>(s2, s6),
            _mm256_permute2f128_ps::<0x31>(s3, s7),
        ]
    }

    /// The search's steps after the first, until the k-th nearest is certain (see
    /// [`block_bound2`]) or every cell has been searched: each frame's runs of cells, the rows
    /// nearest the boid first, a run skipped when its nearest possible candidate is farther than
    /// the k-th nearest ([`least_d2`]).
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    fn later_rings(
        slots: &mut Slots,
        k: usize,
        s: usize,
        p: Vec2,
        (cx, cy): (u32, u32),
        here: &Here,
        grid: &Grid,
        (cells, cells_side): (&[u32], (f32, f32)),
        items: Items,
    ) {
        let Items { xs, ys, ids, n, .. } = items;
        let (w, h) = here.side;
        let wrap = grid.wrap;
        let ax = Axis {
            c: cx as i32,
            pos: p.x,
            n: grid.cols as i32,
            cell: cells_side.0,
            wrap,
        };
        let ay = Axis {
            c: cy as i32,
            pos: p.y,
            n: grid.rows as i32,
            cell: cells_side.1,
            wrap,
        };
        let margin = 1e-6 * w.max(h);
        // The runs of cells of a frame (first and last cell of one grid row, inclusive), each
        // with the least squared distance a candidate in it can have (a frame row has at most
        // two column segments, each split in two at most where it crosses the seam), offered in
        // batches.
        let mut runs = [(0u32, 0u32, 0f32); RUNS];
        let flush = |slots: &mut Slots, runs: &[(u32, u32, f32)]| {
            for &(first, last, least) in runs {
                // Every candidate of the run farther than the k-th nearest: none enters.
                if slots.bound != EMPTY && least > f32::from_bits((slots.bound >> 32) as u32) {
                    continue;
                }
                let (i, j) = (
                    cells[first as usize] as usize,
                    cells[last as usize + 1] as usize,
                );
                assert!(i <= j && j <= n, "a run beyond the items");
                // SAFETY: the run lies within the items (asserted); the fields are padded.
                unsafe { offer_run(slots, k, (i, j), s, here, xs.as_ptr(), ys.as_ptr(), ids) };
            }
        };
        for step in 1.. {
            let (inner, r) = search_frame(step);
            let f = grid.frame(cx, cy, inner, r);
            let mut len = 0;
            // The rows nearest first (offsets 0, −1, 1, −2, 2, …), so that the k-th nearest is
            // known early and the far runs are skipped where they can be.
            let reach = f.y_out.0.unsigned_abs().max(f.y_out.1.unsigned_abs()) as i32;
            for m in 0..=2 * reach {
                let dy = if m % 2 == 1 { -(m + 1) / 2 } else { m / 2 };
                if dy < f.y_out.0 || dy > f.y_out.1 {
                    continue;
                }
                if len + 4 > RUNS {
                    flush(slots, &runs[..len]);
                    len = 0;
                }
                let row = if wrap { ay.wrapped(dy) } else { ay.c + dy } as u32;
                let gy = ay.gap(dy, dy, r);
                let segments = if f.y_in.0 <= dy && dy <= f.y_in.1 {
                    [(f.x_out.0, f.x_in.0 - 1), (f.x_in.1 + 1, f.x_out.1)]
                } else {
                    [(f.x_out.0, f.x_out.1), (1, 0)]
                };
                let base = row * grid.cols;
                for (a, b) in segments {
                    if a > b {
                        continue;
                    }
                    let least = least_d2(ax.gap(a, b, r), gy, margin);
                    if !wrap {
                        runs[len] = (base + (ax.c + a) as u32, base + (ax.c + b) as u32, least);
                        len += 1;
                        continue;
                    }
                    let (w0, w1) = (ax.wrapped(a), ax.wrapped(b));
                    if w0 <= w1 {
                        runs[len] = (base + w0 as u32, base + w1 as u32, least);
                        len += 1;
                    } else {
                        runs[len] = (base + w0 as u32, base + grid.cols - 1, least);
                        runs[len + 1] = (base, base + w1 as u32, least);
                        len += 2;
                    }
                }
            }
            flush(slots, &runs[..len]);
            let bound2 = block_bound2_with(grid, p, (cx, cy), r, (w, h), cells_side);
            if bound2 == f32::MAX
                || (slots.bound != EMPTY && f32::from_bits((slots.bound >> 32) as u32) < bound2)
            {
                break;
            }
        }
    }
}
