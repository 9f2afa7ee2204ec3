//! Shards: `--shard I/N` does the I-th (1-based) of N disjoint slices of a plan's runs (points ×
//! repeats).
//!
//! Run k (0-based index in the full plan; run k + 1 in the files, which number from 1) belongs
//! to shard `(k mod N) + 1`. Interleaving spreads the expensive corner of a plan (say the largest
//! boid counts, which come last) over every shard, and the slice of a run depends only on k and
//! N, never on which machine asks. A shard may be empty when N exceeds the number of runs; it is
//! still a valid shard.

use serde::{Deserialize, Serialize};

/// One slice of a plan: `index` of `count` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, 1 ..= count.
    pub index: u32,
    /// How many slices.
    pub count: u32,
}

/// Most shards a plan may be split into.
pub const MAX_SHARDS: u32 = 100_000;

impl Shard {
    /// Parses `I/N` (1 ≤ I ≤ N ≤ [`MAX_SHARDS`]).
    ///
    /// # Errors
    /// A message quoting the text and the rule.
    // A String, not a SweepError: clap's value parser (`--shard`) shows it as the option's error.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad =
            |why: &str| format!("--shard {text:?}: {why}; write I/N with 1 <= I <= N, e.g. 2/8");
        let (i, n) = text.trim().split_once('/').ok_or_else(|| bad("no '/'"))?;
        let index: u32 = i
            .trim()
            .parse()
            .map_err(|_| bad("I is not a whole number"))?;
        let count: u32 = n
            .trim()
            .parse()
            .map_err(|_| bad("N is not a whole number"))?;
        if count == 0 || count > MAX_SHARDS {
            return Err(bad(&format!("N must be 1 ..= {MAX_SHARDS}")));
        }
        if index == 0 || index > count {
            return Err(bad("I is out of range"));
        }
        Ok(Shard { index, count })
    }

    /// Whether run `k` (index in the full plan) is in this shard.
    pub fn contains(self, k: usize) -> bool {
        k % self.count as usize + 1 == self.index as usize
    }

    /// The runs of a plan of `total` runs in this shard, ascending.
    pub fn runs(self, total: usize) -> Vec<usize> {
        (self.index as usize - 1..total)
            .step_by(self.count as usize)
            .collect()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_runs() {
        let n = 3;
        let total = 10;
        let mut seen = vec![0; total];
        for i in 1..=n {
            let s = Shard::parse(&format!("{i}/{n}")).unwrap();
            for k in s.runs(total) {
                assert!(s.contains(k));
                seen[k] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1), "{seen:?}");
        assert_eq!(Shard::parse("2/3").unwrap().runs(10), vec![1, 4, 7]);
        assert!(Shard::parse("5/5").unwrap().runs(3).is_empty());
    }

    #[test]
    fn bad_shards() {
        for t in ["0/3", "4/3", "1/0", "a/3", "3", "1/2/3"] {
            assert!(Shard::parse(t).is_err(), "{t}");
        }
        assert!(Shard::parse(" 3 / 3 ").is_ok());
    }
}
