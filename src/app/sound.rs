//! Ambient sound: an optional, procedurally generated loop — soft pads and wind, no audio file —
//! off by default, toggled with M or in the menu, louder in immersion.
//!
//! [`Ambient`] ([`crate::app::ambient`]) makes the samples (always built, tested without a
//! device). Playing them needs the cargo feature `sound` (the `cpal` crate, which on Linux links ALSA: build with
//! `apt-get install libasound2-dev` and `cargo build --features sound`). Without the feature, or
//! where there is no audio device, turning the sound on says so once and the app goes on silent.

#[cfg(doc)]
use crate::app::ambient::Ambient;
use crate::app::ambient::{GAIN, GAIN_IMMERSIVE};

/// Why the ambient sound cannot play. Never fatal: the app says it once and goes on silent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SoundError {
    /// This build has no sound (built without the cargo feature `sound`).
    #[error("this build has no sound (cargo feature `sound`)")]
    NotBuilt,
    /// The system has no default audio output device.
    #[error("no audio output device")]
    NoDevice,
    /// The audio device refused (its configuration, a sample format not supported, a stream
    /// that cannot be built or started).
    #[error("audio device {device}: {message}")]
    Device {
        /// The device's name.
        device: String,
        /// What it said.
        message: String,
    },
}

/// The app's sound: wanted or not, playing or why not.
pub struct Sound {
    on: bool,
    immersive: bool,
    #[cfg(feature = "sound")]
    player: Option<device::Player>,
    /// Why it cannot play (said once, then shown in the panel).
    unavailable: Option<SoundError>,
    message: Option<String>,
}

impl Default for Sound {
    fn default() -> Self {
        Sound::new()
    }
}

impl Sound {
    /// Silent, nothing opened.
    pub fn new() -> Sound {
        Sound {
            on: false,
            immersive: false,
            #[cfg(feature = "sound")]
            player: None,
            unavailable: None,
            message: None,
        }
    }

    /// Turns the sound on or off (`immersive`: the louder level). The first time it cannot
    /// play, a message says why ([`Sound::take_message`]).
    pub fn set_on(&mut self, on: bool, immersive: bool) {
        if on == self.on && immersive == self.immersive {
            return;
        }
        self.on = on;
        self.immersive = immersive;
        let gain = match (on, immersive) {
            (false, _) => 0.0,
            (true, false) => GAIN,
            (true, true) => GAIN_IMMERSIVE,
        };
        if !on {
            self.set_gain(gain);
            return;
        }
        if self.unavailable.is_some() {
            return;
        }
        match self.open() {
            Ok(()) => self.set_gain(gain),
            Err(why) => {
                self.message = Some(format!("sound: {why}; going on without it"));
                self.unavailable = Some(why);
            }
        }
    }

    #[cfg(feature = "sound")]
    fn set_gain(&self, gain: f32) {
        if let Some(p) = &self.player {
            p.set_gain(gain);
        }
    }

    #[cfg(not(feature = "sound"))]
    fn set_gain(&self, _gain: f32) {}

    #[cfg(feature = "sound")]
    fn open(&mut self) -> Result<(), SoundError> {
        if self.player.is_none() {
            self.player = Some(device::Player::open()?);
        }
        Ok(())
    }

    #[cfg(not(feature = "sound"))]
    fn open(&mut self) -> Result<(), SoundError> {
        Err(SoundError::NotBuilt)
    }

    /// What the panel shows: playing, off, or why it cannot play; None before the first try.
    pub fn status(&self) -> Option<String> {
        if let Some(why) = &self.unavailable {
            return Some(format!("no sound: {why}"));
        }
        #[cfg(feature = "sound")]
        if let Some(p) = &self.player {
            return Some(if self.on {
                format!("playing on {}", p.device_name())
            } else {
                "off".into()
            });
        }
        None
    }

    /// Why it cannot play, once it was tried and failed.
    pub fn unavailable(&self) -> Option<&SoundError> {
        self.unavailable.as_ref()
    }

    /// Whether it is playing now.
    pub fn playing(&self) -> bool {
        #[cfg(feature = "sound")]
        {
            self.on && self.player.is_some()
        }
        #[cfg(not(feature = "sound"))]
        {
            false
        }
    }

    /// The message to show once (why the sound cannot play), if there is a new one.
    pub fn take_message(&mut self) -> Option<String> {
        self.message.take()
    }
}

#[cfg(feature = "sound")]
mod device {
    //! The output stream (cpal): the default output device, its default configuration, f32
    //! samples from [`crate::app::ambient::Ambient`] (converted where the device wants integers).

    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;

    use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

    use crate::app::ambient::Ambient;
    use crate::app::sound::SoundError;

    pub struct Player {
        _stream: cpal::Stream,
        gain: Arc<AtomicU32>,
        name: String,
    }

    impl Player {
        pub fn open() -> Result<Player, SoundError> {
            // ALSA prints its own lines for a missing card on this thread; catch them in a
            // buffer, since the message the app shows once says what matters.
            #[cfg(target_os = "linux")]
            let _quiet = alsa::Output::local_error_handler().ok();
            let host = cpal::default_host();
            let device = host.default_output_device().ok_or(SoundError::NoDevice)?;
            let name = device
                .description()
                .map(|d| d.name().to_string())
                .unwrap_or_else(|_| "the default device".into());
            let refused = |message: String| SoundError::Device {
                device: name.clone(),
                message,
            };
            let config = device
                .default_output_config()
                .map_err(|e| refused(e.to_string()))?;
            let channels = config.channels() as usize;
            let rate = config.sample_rate();
            let gain = Arc::new(AtomicU32::new(0f32.to_bits()));
            let g = gain.clone();
            let mut ambient = Ambient::new(rate);
            let mut buf = Vec::new();
            let err = |e| eprintln!("boids: sound: {e}");
            let mut f32_source = move |out: &mut [f32]| {
                ambient.set_gain(f32::from_bits(g.load(Ordering::Relaxed)));
                ambient.fill(out, channels);
            };
            let stream = match config.sample_format() {
                cpal::SampleFormat::F32 => device.build_output_stream(
                    &config.config(),
                    move |out: &mut [f32], _| f32_source(out),
                    err,
                    None,
                ),
                cpal::SampleFormat::I16 => device.build_output_stream(
                    &config.config(),
                    move |out: &mut [i16], _| {
                        buf.resize(out.len(), 0.0);
                        f32_source(&mut buf);
                        for (o, s) in out.iter_mut().zip(&buf) {
                            *o = (s * i16::MAX as f32) as i16;
                        }
                    },
                    err,
                    None,
                ),
                f => return Err(refused(format!("sample format {f} not supported"))),
            }
            .map_err(|e| refused(e.to_string()))?;
            stream.play().map_err(|e| refused(e.to_string()))?;
            Ok(Player {
                _stream: stream,
                gain,
                name,
            })
        }

        pub fn set_gain(&self, gain: f32) {
            self.gain.store(gain.to_bits(), Ordering::Relaxed);
        }

        pub fn device_name(&self) -> &str {
            &self.name
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a device (or without the feature) turning the sound on says why once and goes on.
    #[test]
    fn unavailable_sound_is_said_once() {
        let mut s = Sound::new();
        assert_eq!(s.status(), None);
        s.set_on(true, false);
        if s.playing() {
            return; // A machine with a sound card: nothing to check here.
        }
        let m = s.take_message().expect("a message");
        assert!(m.contains("going on without it"), "{m}");
        assert!(s.take_message().is_none());
        s.set_on(false, false);
        s.set_on(true, true);
        assert!(s.take_message().is_none(), "said once");
        assert!(s.status().unwrap().starts_with("no sound"));
    }

    /// Without the feature the reason is its own kind, whatever the machine.
    #[cfg(not(feature = "sound"))]
    #[test]
    fn a_build_without_sound_says_so() {
        let mut s = Sound::new();
        assert_eq!(s.unavailable(), None);
        s.set_on(true, false);
        assert_eq!(s.unavailable(), Some(&SoundError::NotBuilt));
        assert!(s.status().unwrap().contains("cargo feature `sound`"));
    }
}
