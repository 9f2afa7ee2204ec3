//! The ambient loop's samples ([`Ambient`]): a chord of five sine partials (A2, E3, A3, B3, C♯4,
//! each with a detuned twin for a slow chorus) whose loudness swells on periods of 11–29 s, and
//! wind, white noise through a one-pole low-pass filter whose cutoff and level drift with two slow
//! sines. Every frequency is a whole multiple of 1/64 Hz, so the pad repeats exactly every 64 s.
//! Always built and tested without a device; [`crate::app::sound`] plays it.

/// Samples per second of [`Ambient`] unless a device asks for another rate.
pub const SAMPLE_RATE: u32 = 48_000;
/// Output level at normal play (linear, of full scale).
pub const GAIN: f32 = 0.18;
/// Output level in immersion.
pub const GAIN_IMMERSIVE: f32 = 0.32;
/// Length of the loop (s).
pub const LOOP_S: f64 = 64.0;

/// (frequency Hz, level) of the pad's partials; each plays with a twin 1/8 Hz above.
const PARTIALS: [(f64, f32); 5] = [
    (110.0, 0.30),
    (164.8125, 0.22),
    (220.0, 0.18),
    (246.9375, 0.10),
    (277.1875, 0.12),
];
/// Swells of each partial per loop (so each swells at k/64 Hz and the loop stays exact).
const SWELL_CYCLES: [f64; 5] = [3.0, 5.0, 2.0, 4.0, 6.0];

/// The generator: call [`Ambient::fill`] with interleaved stereo buffers.
#[derive(Clone, Debug)]
pub struct Ambient {
    rate: f64,
    n: u64,
    noise: u32,
    wind_l: [f32; 2],
    wind_r: [f32; 2],
    gain: f32,
    target: f32,
}

impl Ambient {
    /// A generator at `rate` samples per second, silent until [`Ambient::set_gain`].
    pub fn new(rate: u32) -> Ambient {
        Ambient {
            rate: rate.max(1) as f64,
            n: 0,
            noise: 0x9E37_79B9,
            wind_l: [0.0; 2],
            wind_r: [0.0; 2],
            gain: 0.0,
            target: 0.0,
        }
    }

    /// The level to glide to (over about 0.5 s, so switching never clicks).
    pub fn set_gain(&mut self, gain: f32) {
        self.target = gain.clamp(0.0, 1.0);
    }

    fn white(&mut self) -> f32 {
        // xorshift32: cheap, deterministic.
        let mut x = self.noise;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.noise = x;
        (x as f32 / u32::MAX as f32) * 2.0 - 1.0
    }

    /// The next stereo sample at full level (before the gain).
    fn next(&mut self) -> (f32, f32) {
        use std::f64::consts::TAU;
        let t = self.n as f64 / self.rate;
        self.n += 1;
        let loop_t = t % LOOP_S;
        let mut l = 0.0f64;
        let mut r = 0.0f64;
        for (k, ((f, level), cycles)) in PARTIALS.iter().zip(SWELL_CYCLES).enumerate() {
            let swell = 0.55 + 0.45 * (TAU * cycles / LOOP_S * loop_t + k as f64).sin();
            let a = (TAU * f * loop_t).sin();
            let b = (TAU * (f + 0.125) * loop_t).sin();
            let pan = 0.5 + 0.3 * ((k as f64) - 2.0) / 2.0;
            let v = *level as f64 * swell * 0.5;
            l += v * (a * (1.0 - pan) + b * pan);
            r += v * (b * (1.0 - pan) + a * pan);
        }
        // Wind: low-passed noise with a drifting cutoff (≈ 200–900 Hz) and level.
        let drift = 0.5 + 0.5 * (TAU * loop_t / 16.0).sin();
        let cutoff = 200.0 + 700.0 * drift;
        let alpha = (1.0 - (-TAU * cutoff / self.rate).exp()) as f32;
        let (wl, wr) = (self.white(), self.white());
        // Two one-pole stages: a softer, darker hiss than one.
        let lowpass = |st: &mut [f32; 2], x: f32| {
            st[0] += alpha * (x - st[0]);
            st[1] += alpha * (st[0] - st[1]);
            st[1]
        };
        let (nl, nr) = (lowpass(&mut self.wind_l, wl), lowpass(&mut self.wind_r, wr));
        let wind = 0.5 + 0.35 * (TAU * loop_t / 32.0 + 1.0).sin() as f32;
        (
            (l as f32 * 0.6 + nl * wind).clamp(-1.0, 1.0),
            (r as f32 * 0.6 + nr * wind).clamp(-1.0, 1.0),
        )
    }

    /// Fills `out` with interleaved samples of `channels` channels (the first two get left and
    /// right, further ones their mean; one channel gets the mean), gliding toward the target gain.
    pub fn fill(&mut self, out: &mut [f32], channels: usize) {
        let channels = channels.max(1);
        let glide = (1.0 / (0.5 * self.rate)) as f32;
        for frame in out.chunks_mut(channels) {
            let (l, r) = self.next();
            let d = self.target - self.gain;
            self.gain += d.clamp(-glide, glide);
            let (l, r) = (l * self.gain, r * self.gain);
            for (c, s) in frame.iter_mut().enumerate() {
                *s = match (channels, c) {
                    (1, _) => 0.5 * (l + r),
                    (_, 0) => l,
                    (_, 1) => r,
                    _ => 0.5 * (l + r),
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(seconds: f64, gain: f32) -> Vec<f32> {
        let mut a = Ambient::new(SAMPLE_RATE);
        a.set_gain(gain);
        let mut out = vec![0.0; (seconds * SAMPLE_RATE as f64) as usize * 2];
        a.fill(&mut out, 2);
        out
    }

    fn rms(x: &[f32]) -> f32 {
        (x.iter().map(|s| s * s).sum::<f32>() / x.len().max(1) as f32).sqrt()
    }

    #[test]
    fn samples_are_finite_bounded_and_audible_at_the_gain() {
        let out = render(4.0, GAIN);
        assert!(out.iter().all(|s| s.is_finite() && s.abs() <= GAIN + 1e-6));
        // After the 0.5 s fade-in, the level is a soft but audible fraction of the gain.
        let tail = &out[SAMPLE_RATE as usize * 2..];
        let level = rms(tail) / GAIN;
        assert!((0.05..0.6).contains(&level), "rms {level} of the gain");
        // Silent at gain 0; immersion is louder.
        assert!(render(1.0, 0.0).iter().all(|s| *s == 0.0));
        let loud = rms(&render(4.0, GAIN_IMMERSIVE)[SAMPLE_RATE as usize * 2..]);
        assert!(loud > rms(tail) * 1.5, "{loud} vs {}", rms(tail));
    }

    /// It fades in rather than clicking on: the first 10 ms are far quieter than a later second.
    #[test]
    fn switching_on_fades_in() {
        let out = render(2.0, GAIN);
        let first = rms(&out[..(SAMPLE_RATE as usize / 100) * 2]);
        let later = rms(&out[SAMPLE_RATE as usize * 2..]);
        assert!(first < later * 0.1, "{first} vs {later}");
    }

    /// One-pole low-pass at `hz` of `x` sampled at [`SAMPLE_RATE`].
    fn lowpassed(x: &[f32], hz: f64) -> Vec<f32> {
        let a = (1.0 - (-std::f64::consts::TAU * hz / SAMPLE_RATE as f64).exp()) as f32;
        let mut y = 0.0;
        x.iter()
            .map(|s| {
                y += a * (s - y);
                y
            })
            .collect()
    }

    /// Soft: most of the energy is below 1 kHz (white noise keeps about a fifth of its level
    /// through the same filter), it is not a constant, and the two channels differ (a stereo
    /// image, not one channel twice).
    #[test]
    fn it_is_a_soft_low_stereo_sound() {
        let out = render(3.0, GAIN);
        let left: Vec<f32> = out.iter().step_by(2).copied().collect();
        let right: Vec<f32> = out.iter().skip(1).step_by(2).copied().collect();
        let low = rms(&lowpassed(&left, 1000.0)) / rms(&left);
        assert!(low > 0.75, "{low} of the level is below 1 kHz");
        let mut noise = Ambient::new(SAMPLE_RATE);
        let white: Vec<f32> = (0..SAMPLE_RATE).map(|_| noise.white()).collect();
        assert!(
            rms(&lowpassed(&white, 1000.0)) / rms(&white) < 0.4,
            "the check can fail"
        );
        let crossings = left.windows(2).filter(|w| w[0] * w[1] < 0.0).count() as f64 / 3.0;
        assert!(crossings > 50.0, "{crossings}: a pad, not silence or DC");
        let diff: Vec<f32> = left.iter().zip(&right).map(|(l, r)| l - r).collect();
        assert!(rms(&diff) > 0.05 * rms(&left));
    }

    /// The sound repeats after [`LOOP_S`]: two generators with the same noise seed, one started
    /// a loop later, give the same samples; half a loop later they differ.
    #[test]
    fn the_pad_loops() {
        let mut a = Ambient::new(1000);
        a.noise = 1;
        let mut b = a.clone();
        b.n = (LOOP_S * 1000.0) as u64;
        let (mut x, mut y) = (vec![0.0; 2000], vec![0.0; 2000]);
        a.set_gain(1.0);
        b.set_gain(1.0);
        a.gain = 1.0;
        b.gain = 1.0;
        a.fill(&mut x, 2);
        b.fill(&mut y, 2);
        let d: f32 = x
            .iter()
            .zip(&y)
            .map(|(p, q)| (p - q).abs())
            .fold(0.0, f32::max);
        assert!(d < 1e-3, "{d}");
        // And it is not constant: a render half a loop later differs.
        let mut c = a.clone();
        c.n = (LOOP_S * 500.0) as u64;
        c.noise = 1;
        let mut z = vec![0.0; 2000];
        let mut a2 = Ambient::new(1000);
        a2.noise = 1;
        a2.gain = 1.0;
        a2.set_gain(1.0);
        a2.fill(&mut x, 2);
        c.fill(&mut z, 2);
        let d: f32 = x
            .iter()
            .zip(&z)
            .map(|(p, q)| (p - q).abs())
            .fold(0.0, f32::max);
        assert!(d > 1e-2, "{d}");
    }

    #[test]
    fn mono_and_multichannel_buffers_are_filled() {
        let mut a = Ambient::new(SAMPLE_RATE);
        a.gain = 1.0;
        a.set_gain(1.0);
        let mut mono = vec![0.0; 4800];
        a.fill(&mut mono, 1);
        assert!(rms(&mono) > 0.01);
        let mut six = vec![0.0; 6 * 4800];
        a.fill(&mut six, 6);
        for c in 0..6 {
            let ch: Vec<f32> = six.iter().skip(c).step_by(6).copied().collect();
            assert!(rms(&ch) > 0.01, "channel {c}");
        }
    }
}
