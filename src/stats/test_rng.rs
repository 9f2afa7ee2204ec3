//! A small seeded generator for the tests of this module only (the crate's own counter-based
//! generator is deliberately not used: this module depends on nothing else in the crate).
//!
//! SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA
//! 2014), uniforms from its top 53 bits, normals by Box–Muller.

pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> TestRng {
        TestRng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Standard normal (Box–Muller, one of the pair).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.uniform(); // (0, 1]
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// Uniform angle in [0, 2π).
    pub fn angle(&mut self) -> f64 {
        std::f64::consts::TAU * self.uniform()
    }

    /// `n` samples of the stationary AR(1) process x_t = ρ x_{t−1} + ε_t, ε_t standard normal
    /// (x_0 drawn from the stationary law, variance 1/(1 − ρ²)); i.i.d. normals for ρ = 0.
    pub fn ar1(&mut self, n: usize, rho: f64) -> Vec<f64> {
        let mut x = self.normal() / (1.0 - rho * rho).sqrt();
        (0..n)
            .map(|_| {
                let out = x;
                x = rho * x + self.normal();
                out
            })
            .collect()
    }

    /// The polarization φ = |Σ e^{iθ_j}|/N of `n` independent uniform headings.
    pub fn random_polarization(&mut self, n: usize) -> f64 {
        let (mut sx, mut sy) = (0.0f64, 0.0f64);
        for _ in 0..n {
            let (s, c) = self.angle().sin_cos();
            sx += c;
            sy += s;
        }
        (sx * sx + sy * sy).sqrt() / n as f64
    }
}
