//! A recording's PNG frames encoded into an MP4 without ffmpeg (feature `h264`, on by default):
//! H.264 by OpenH264 (Cisco's encoder, BSD-2-Clause, compiled from its C++ source by the
//! `openh264` crate's `source` feature: a C++ compiler is all it needs to build; no assembler, no
//! system library), muxed into an MP4 (ISO BMFF, one `avc1` track) by the pure-Rust `mp4` crate.
//!
//! Each frame is read back from its PNG, padded to even sides of at least 16 px (4:2:0 chroma
//! halves them; OpenH264 refuses smaller pictures) by repeating its last column and row,
//! converted to I420 and encoded at a target bit rate (`bit_rate`) with frame skipping off,
//! so that every frame is kept (OpenH264 says once on stderr that it then cannot hold the rate
//! exactly: 7.3 Mbit/s against 6.9 asked, 20 000 boids at 1280 × 720, 30 fps). An intra frame
//! every two seconds lets players seek. (Its constant-quantiser mode ignores the quantiser range
//! and wrote 44 Mbit/s for the same frames; its buffer-based mode 91.) A patent note:
//! H.264 is covered by patents in some countries; Cisco's own binaries carry its licence for
//! them, a build from source does not.

use std::path::{Path, PathBuf};

use openh264::encoder::{
    BitRate, EncodedBitStream, Encoder, EncoderConfig, FrameRate, IntraFramePeriod, RateControlMode,
};
use openh264::formats::{RgbaSliceU8, YUVBuffer};
use openh264::OpenH264API;

/// Why a recording's frames could not become an MP4.
#[derive(Debug, thiserror::Error)]
pub enum H264Error {
    /// A frame could not be read back.
    #[error("cannot read frame {path}: {why}")]
    Frame {
        /// The frame's file.
        path: PathBuf,
        /// The decoder's message.
        why: String,
    },
    /// A frame differs in size from the first.
    #[error("frame {path} is {got:?} px where the first was {want:?} px")]
    Size {
        /// The frame's file.
        path: PathBuf,
        /// Its size.
        got: (u32, u32),
        /// The first frame's size.
        want: (u32, u32),
    },
    /// The encoder refused the frames or a setting.
    #[error("H.264 encoder: {0}")]
    Encoder(String),
    /// The MP4 could not be written.
    #[error("MP4 writer: {0}")]
    Mux(String),
}

/// The encoded size of a `w` × `h` frame: even sides of at least [`MIN_SIDE`] px.
fn coded_size(w: u32, h: u32) -> (u32, u32) {
    ((w + w % 2).max(MIN_SIDE), (h + h % 2).max(MIN_SIDE))
}

/// The bit rate asked for `w` × `h` frames at `fps` (bit/s): 0.25 bit per pixel and frame,
/// between 2 and 40 Mbit/s (1280 × 720 at 30 fps: 6.9 Mbit/s).
fn bit_rate(w: u32, h: u32, fps: f64) -> u32 {
    (0.25 * w as f64 * h as f64 * fps).clamp(2.0e6, 40.0e6) as u32
}

/// The smallest side OpenH264 encodes (px).
const MIN_SIDE: u32 = 16;

/// `img` at its coded size ([`coded_size`]): its last column and row repeated where a side grew.
fn even_sided(img: image::RgbaImage) -> image::RgbaImage {
    let (w, h) = img.dimensions();
    let (ew, eh) = coded_size(w, h);
    if (ew, eh) == (w, h) {
        return img;
    }
    image::RgbaImage::from_fn(ew, eh, |x, y| *img.get_pixel(x.min(w - 1), y.min(h - 1)))
}

/// The NAL units of an encoded frame, without their start codes.
fn nal_payloads(bits: &EncodedBitStream<'_>) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for l in 0..bits.num_layers() {
        let Some(layer) = bits.layer(l) else { continue };
        for n in 0..layer.nal_count() {
            if let Some(nal) = layer.nal_unit(n) {
                let payload = strip_start_code(nal);
                if !payload.is_empty() {
                    out.push(payload.to_vec());
                }
            }
        }
    }
    out
}

/// A NAL unit without its Annex B start code (`00 00 00 01` or `00 00 01`).
fn strip_start_code(nal: &[u8]) -> &[u8] {
    if nal.starts_with(&[0, 0, 0, 1]) {
        &nal[4..]
    } else if nal.starts_with(&[0, 0, 1]) {
        &nal[3..]
    } else {
        nal
    }
}

/// Encodes `frames` (PNG files of one size) at `fps` into the MP4 `out` (written in place: the
/// caller writes to a temporary name and renames). Returns the frames encoded.
///
/// # Errors
/// [`H264Error`]: a frame that cannot be read or differs in size, the encoder's or the
/// writer's failure.
pub fn encode(frames: &[PathBuf], fps: f64, out: &Path) -> Result<u64, H264Error> {
    let Some(first) = frames.first() else {
        return Ok(0);
    };
    let read = |p: &PathBuf| {
        image::open(p)
            .map(|i| i.to_rgba8())
            .map_err(|e| H264Error::Frame {
                path: p.clone(),
                why: e.to_string(),
            })
    };
    let want = read(first)?.dimensions();
    let (w, h) = coded_size(want.0, want.1);
    let config = EncoderConfig::new()
        .debug(false)
        .max_frame_rate(FrameRate::from_hz(fps as f32))
        .rate_control_mode(RateControlMode::Bitrate)
        .bitrate(BitRate::from_bps(bit_rate(w, h, fps)))
        .skip_frames(false)
        .intra_frame_period(IntraFramePeriod::from_num_frames(
            (2.0 * fps).round().max(1.0) as u32,
        ));
    let mut encoder = Encoder::with_api_config(OpenH264API::from_source(), config)
        .map_err(|e| H264Error::Encoder(e.to_string()))?;
    let file = std::fs::File::create(out).map_err(|e| H264Error::Mux(e.to_string()))?;
    // Media time in units of 1/timescale s: fps × 1000 ticks a second, a frame 1000 of them
    // (exact for whole and thousandth frame rates).
    let timescale = (fps * 1000.0).round().max(1.0) as u32;
    let mut writer = mp4::Mp4Writer::write_start(
        std::io::BufWriter::new(file),
        &mp4::Mp4Config {
            major_brand: str::parse("isom").map_err(|e| H264Error::Mux(format!("{e}")))?,
            minor_version: 512,
            compatible_brands: ["isom", "iso2", "avc1", "mp41"]
                .iter()
                .map(|b| str::parse(b))
                .collect::<Result<_, _>>()
                .map_err(|e| H264Error::Mux(format!("{e}")))?,
            timescale,
        },
    )
    .map_err(|e| H264Error::Mux(e.to_string()))?;
    let mut track = false;
    let mut encoded = 0u64;
    for path in frames {
        let img = read(path)?;
        if img.dimensions() != want {
            return Err(H264Error::Size {
                path: path.clone(),
                got: img.dimensions(),
                want,
            });
        }
        let img = even_sided(img);
        let yuv =
            YUVBuffer::from_rgb8_source(RgbaSliceU8::new(img.as_raw(), (w as usize, h as usize)));
        let bits = encoder
            .encode(&yuv)
            .map_err(|e| H264Error::Encoder(e.to_string()))?;
        let nals = nal_payloads(&bits);
        let kind = |n: &[u8]| n[0] & 0x1f;
        if !track {
            let sps = nals.iter().find(|n| kind(n) == 7);
            let pps = nals.iter().find(|n| kind(n) == 8);
            let (Some(sps), Some(pps)) = (sps, pps) else {
                return Err(H264Error::Encoder(
                    "the first frame came without its parameter sets".into(),
                ));
            };
            writer
                .add_track(&mp4::TrackConfig {
                    track_type: mp4::TrackType::Video,
                    timescale,
                    language: "und".into(),
                    media_conf: mp4::MediaConfig::AvcConfig(mp4::AvcConfig {
                        width: w as u16,
                        height: h as u16,
                        seq_param_set: sps.to_vec(),
                        pic_param_set: pps.to_vec(),
                    }),
                })
                .map_err(|e| H264Error::Mux(e.to_string()))?;
            track = true;
        }
        // The sample: the frame's slices, each behind its 4-byte length (the parameter sets
        // live in the track's avcC box).
        let mut sample = Vec::with_capacity(nals.iter().map(|n| n.len() + 4).sum());
        let mut sync = false;
        for n in nals.iter().filter(|n| !(7..=9).contains(&kind(n))) {
            sync |= kind(n) == 5;
            sample.extend_from_slice(&(n.len() as u32).to_be_bytes());
            sample.extend_from_slice(n);
        }
        writer
            .write_sample(
                1,
                &mp4::Mp4Sample {
                    start_time: encoded * 1000,
                    duration: 1000,
                    rendering_offset: 0,
                    is_sync: sync,
                    bytes: sample.into(),
                },
            )
            .map_err(|e| H264Error::Mux(e.to_string()))?;
        encoded += 1;
    }
    writer
        .write_end()
        .map_err(|e| H264Error::Mux(e.to_string()))?;
    use std::io::Write;
    writer
        .into_writer()
        .flush()
        .map_err(|e| H264Error::Mux(e.to_string()))?;
    Ok(encoded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_and_tiny_sides_are_padded_by_repeating_the_edge() {
        let img = image::RgbaImage::from_fn(17, 3, |x, _| image::Rgba([x as u8, 0, 0, 255]));
        let e = even_sided(img);
        assert_eq!(e.dimensions(), (18, 16));
        assert_eq!(e.get_pixel(17, 0)[0], 16);
        assert_eq!(e.get_pixel(17, 15)[0], 16);
        assert_eq!(e.get_pixel(0, 15)[0], 0);
        assert_eq!(coded_size(1280, 720), (1280, 720));
    }

    #[test]
    fn the_bit_rate_follows_the_picture_within_bounds() {
        assert_eq!(bit_rate(1280, 720, 30.0), 6_912_000);
        assert_eq!(bit_rate(64, 64, 30.0), 2_000_000);
        assert_eq!(bit_rate(7680, 4320, 60.0), 40_000_000);
    }

    #[test]
    fn start_codes_are_stripped() {
        assert_eq!(strip_start_code(&[0, 0, 0, 1, 0x67, 1]), &[0x67, 1]);
        assert_eq!(strip_start_code(&[0, 0, 1, 0x68, 0]), &[0x68, 0]);
        assert_eq!(strip_start_code(&[0x65, 4]), &[0x65, 4]);
    }
}
