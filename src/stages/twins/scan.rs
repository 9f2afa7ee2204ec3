//! `scan` (`shaders/scan.wgsl`): cell counts become cell starts.

/// Exclusive prefix sum in place: `data[i]` ← Σ_{k<i} `data[k]` (wrapping, as `u32` on the GPU).
/// Returns the total. With `data` = the cell counts followed by one 0, the last entry becomes the
/// number of items, so `data[c] .. data[c + 1]` is the range of cell `c`.
pub fn scan(data: &mut [u32]) -> u32 {
    let mut sum = 0u32;
    for x in data.iter_mut() {
        let count = *x;
        *x = sum;
        sum = sum.wrapping_add(count);
    }
    sum
}
