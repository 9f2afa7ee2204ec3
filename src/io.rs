//! Files in and out, safe at the extremes.
//!
//! **Writing.** Every output file is written whole: [`write_atomic`] (or [`write_atomic_with`] for
//! a streamed writer) creates a fresh temporary file beside the target — exclusively, under a
//! random name `.<name>.<random>.tmp`, so a file or symbolic link planted at any fixed name is
//! never followed or reused — writes and syncs it, then renames it over the target. A crash or a
//! failed write never leaves a half-written target; a failed write deletes its temporary file.
//!
//! - A target that is a **symbolic link** is written *through*: the link is resolved (a chain of
//!   up to 40 links, relative ones against the link's folder) and the real file is replaced
//!   atomically beside itself; the link stays a link. A dangling link creates the file it names.
//! - A target that exists but is not a regular file — a **directory, character or block device,
//!   FIFO or socket** — is refused with a message naming the path and what it is (renaming over
//!   it would replace the device or FIFO by a regular file).
//! - An existing target keeps its permission bits; a new file gets `0o666` less the umask, as
//!   `std::fs::write` would.
//! - **Interruption.** The temporary files being written are registered; [`exit_interrupted`]
//!   deletes them and exits with status 130. [`install_interrupt_cleanup`] installs it as the
//!   Ctrl-C (SIGINT, SIGTERM, SIGHUP) handler, so a save interrupted by a signal leaves neither a
//!   truncated target nor a temporary file. Only SIGKILL (or power loss) can leave a temporary
//!   file; its random name is never reused.
//!
//! **Reading.** Scene and script files are read through [`read_text_limited`] with the limit
//! [`TEXT_FILE_LIMIT`] (16 MiB): `/dev/zero` or a huge file is refused once the limit is passed,
//! without reading further. State files are streamed line by line (see
//! [`crate::formats::checkpoint`]).
//!
//! **Pictures.** [`write_picture`] writes an image whole, as [`write_atomic`] does, in the format
//! its file extension names ([`picture_format`]: PNG, or JPEG at [`JPEG_QUALITY`]); [`write_png`]
//! and [`png_bytes`] write PNG.
//!
//! **Quoting.** Error messages quote at most [`QUOTE_CHARS`] characters of an offending value
//! ([`clip`], [`clip_message`]), so a 100 000-character value cannot flood the terminal.

use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Largest scene or script file read (bytes): 16 MiB.
pub const TEXT_FILE_LIMIT: u64 = 16 << 20;

/// Longest part of an offending value quoted in an error message (characters).
pub const QUOTE_CHARS: usize = 60;

/// Longest error message passed on whole by [`clip_message`] (characters).
pub const MESSAGE_CHARS: usize = 2000;

/// How many symbolic links [`write_atomic`] follows before giving up (as Linux's `ELOOP`).
const MAX_LINKS: usize = 40;

/// Temporary files being written now (deleted by [`exit_interrupted`]).
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// `s` itself when it has at most [`QUOTE_CHARS`] characters, else its first [`QUOTE_CHARS`]
/// characters followed by `… (N characters)`.
pub fn clip(s: &str) -> String {
    clip_to(s, QUOTE_CHARS)
}

fn clip_to(s: &str, max: usize) -> String {
    if is_clipped(s, max) {
        return s.to_string();
    }
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}… ({} characters)", &s[..cut], s.chars().count()),
    }
}

/// Whether `s` is already the output of `clip_to(_, max)` (messages pass through several layers).
fn is_clipped(s: &str, max: usize) -> bool {
    let Some((head, tail)) = s.split_once("… (") else {
        return false;
    };
    let Some(n) = tail.strip_suffix(" characters)") else {
        return false;
    };
    head.chars().count() <= max && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
}

/// `path` for a message: its display form, clipped to 200 characters (a path cannot be longer
/// than the OS allows, but a command-line argument can).
pub fn show_path(path: &Path) -> String {
    clip_to(&path.display().to_string(), 200)
}

/// A message from another library (TOML, serde, clap) made short: every segment between a pair
/// of `"` or `` ` `` longer than [`QUOTE_CHARS`] characters is clipped as [`clip`] does, so is any
/// run of more than 200 non-blank characters, and the whole is cut at [`MESSAGE_CHARS`].
pub fn clip_message(msg: &str) -> String {
    clip_quoted(msg, &['"', '`'])
}

/// [`clip_message`] with the quote characters `quotes` (e.g. `'` too, for clap's messages).
pub fn clip_quoted(msg: &str, quotes: &[char]) -> String {
    let mut out = String::with_capacity(msg.len().min(4 * MESSAGE_CHARS));
    let mut rest = msg;
    while let Some(open) = rest.find(quotes) {
        let q = rest[open..].chars().next().unwrap_or('"');
        let after = &rest[open + 1..];
        match after.find(q) {
            Some(close) => {
                out.push_str(&clip_runs(&rest[..open]));
                out.push(q);
                out.push_str(&clip(&after[..close]));
                out.push(q);
                rest = &after[close + 1..];
            }
            None => break,
        }
    }
    out.push_str(&clip_runs(rest));
    clip_to(&out, MESSAGE_CHARS)
}

/// `s` with every run of more than 200 non-blank characters clipped.
fn clip_runs(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(4 * MESSAGE_CHARS));
    let mut word = String::new();
    for c in s.chars() {
        if c.is_whitespace() {
            out.push_str(&clip_to(&word, 200));
            word.clear();
            out.push(c);
        } else {
            word.push(c);
        }
    }
    out.push_str(&clip_to(&word, 200));
    out
}

/// Reads a text file of at most `limit` bytes; `what` names the kind of file in the error
/// ("scene file", "script").
///
/// # Errors
/// The I/O error; [`std::io::ErrorKind::FileTooLarge`] when the file holds more than `limit`
/// bytes (only `limit + 1` bytes are read, so `/dev/zero` is refused at once), or
/// [`std::io::ErrorKind::InvalidData`] when it is not UTF-8. The messages name the limit, not the
/// path (callers add it).
pub fn read_text_limited(path: &Path, limit: u64, what: &str) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a directory",
        ));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "larger than the {} limit for a {what} ({limit} bytes)",
                size_words(limit)
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// `16 MiB`, `4 KiB`, or bytes.
pub fn size_words(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// Writes `bytes` to `path` whole (see the module documentation).
///
/// # Errors
/// The I/O error or the refusal, with the path in its message.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Writes `path` whole from what `write` writes into a buffered writer (see the module
/// documentation); for outputs too large to hold in memory first.
///
/// # Errors
/// The error of `write` or of the file system, or the refusal of a target that is not a regular
/// file, with the path in its message; the target is then unchanged and no temporary file is left.
pub fn write_atomic_with<F>(path: &Path, write: F) -> std::io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    let named =
        |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", show_path(path)));
    let target = resolve_links(path).map_err(named)?;
    let shown = if target == path {
        show_path(path)
    } else {
        format!("{} (a link to {})", show_path(path), show_path(&target))
    };
    let named = |e: std::io::Error| std::io::Error::new(e.kind(), format!("{shown}: {e}"));
    let existing = match std::fs::symlink_metadata(&target) {
        Ok(m) if m.is_file() => Some(m.permissions()),
        Ok(m) => {
            return Err(std::io::Error::new(
                if m.is_dir() {
                    std::io::ErrorKind::IsADirectory
                } else {
                    std::io::ErrorKind::InvalidInput
                },
                format!(
                    "{shown} is {}, not a regular file: outputs are written whole (a temporary \
                     file renamed over the target), which would replace it; give a file path",
                    file_kind(&m)
                ),
            ));
        }
        // No such file (its folder is looked at when the temporary file is made there).
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            None
        }
        Err(e) => return Err(named(e)),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let prefix = format!(".{}.", clip_bytes(&name, 100));
    let tmp = {
        // Created and registered under the lock, so an interrupt never misses it.
        let mut list = pending();
        let mut b = tempfile::Builder::new();
        b.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            b.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let tmp = b
            .tempfile_in(&dir)
            .map_err(|e| temp_file_error(&shown, &dir, e))?;
        list.push(tmp.path().to_path_buf());
        tmp
    };
    let unregister = |p: &Path| pending().retain(|q| q != p);
    let written = (|| {
        if let Some(perm) = existing {
            tmp.as_file().set_permissions(perm)?;
        }
        let mut w = BufWriter::with_capacity(1 << 16, tmp.as_file());
        write(&mut w)?;
        w.flush()?;
        drop(w);
        tmp.as_file().sync_all()
    })();
    let tmp_path = tmp.path().to_path_buf();
    if let Err(e) = written {
        drop(tmp); // deletes the temporary file
        unregister(&tmp_path);
        return Err(named(e));
    }
    let mut list = pending();
    let res = tmp.persist(&target).map_err(|e| named(e.error));
    list.retain(|q| *q != tmp_path);
    res.map(|_| ())
}

/// Follows `path` while it is a symbolic link; the final path may not exist.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = if to.is_absolute() {
                    to
                } else {
                    p.parent().unwrap_or(Path::new("")).join(to)
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("more than {MAX_LINKS} symbolic links to follow (a loop?)"),
    ))
}

/// What a non-regular file is, for a message: "a directory", "a character device", …
fn file_kind(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// The first at most `max` bytes of `s`, cut at a character boundary.
fn clip_bytes(s: &str, max: usize) -> &str {
    let mut cut = s.len().min(max);
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    &s[..cut]
}

/// A picture that cannot be written; nothing is written then (a failed write leaves no partial
/// file, see the module documentation).
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The path's extension names no format written ([`PICTURE_EXTENSIONS`]); refused before
    /// anything is rendered or written.
    #[error(
        "{}: a picture is written in the format its extension names; supported: {}",
        show_path(path),
        picture_extensions()
    )]
    Format {
        /// The path given.
        path: PathBuf,
    },
    /// The encoder failed.
    #[error("{}: cannot encode the picture: {source}", show_path(path))]
    Encode {
        /// The picture's path.
        path: PathBuf,
        /// The encoder's error.
        source: image::ImageError,
    },
    /// The file could not be written (the message names the path and, where it helps, the way
    /// out: a missing folder, a permission, a target that is not a regular file).
    #[error(transparent)]
    Write(std::io::Error),
}

/// `.png, .jpg, .jpeg`: the extensions of [`PICTURE_EXTENSIONS`].
fn picture_extensions() -> String {
    let list: Vec<String> = PICTURE_EXTENSIONS
        .iter()
        .map(|(e, _)| format!(".{e}"))
        .collect();
    list.join(", ")
}

/// Encodes an image as PNG bytes.
///
/// # Errors
/// The encoder's error.
pub fn png_bytes(img: &image::RgbaImage) -> Result<Vec<u8>, image::ImageError> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)?;
    Ok(out.into_inner())
}

/// Writes `img` as a PNG at `path`, whole (temporary file then rename).
///
/// # Errors
/// [`PictureError::Encode`] or [`PictureError::Write`], naming the path.
pub fn write_png(path: &Path, img: &image::RgbaImage) -> Result<(), PictureError> {
    let bytes = png_bytes(img).map_err(|source| PictureError::Encode {
        path: path.to_path_buf(),
        source,
    })?;
    write_atomic(path, &bytes).map_err(PictureError::Write)
}

/// The picture formats written, by file extension (compared without case).
pub const PICTURE_EXTENSIONS: [(&str, image::ImageFormat); 3] = [
    ("png", image::ImageFormat::Png),
    ("jpg", image::ImageFormat::Jpeg),
    ("jpeg", image::ImageFormat::Jpeg),
];

/// Quality of the JPEG encoder (1 ..= 100).
pub const JPEG_QUALITY: u8 = 90;

/// The format a picture's path names by its extension ([`PICTURE_EXTENSIONS`]).
///
/// # Errors
/// [`PictureError::Format`] for another extension or none (its message names the path and the
/// supported extensions).
pub fn picture_format(path: &Path) -> Result<image::ImageFormat, PictureError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    PICTURE_EXTENSIONS
        .iter()
        .find(|(e, _)| ext.as_deref() == Some(*e))
        .map(|(_, f)| *f)
        .ok_or_else(|| PictureError::Format {
            path: path.to_path_buf(),
        })
}

/// Writes `img` at `path`, whole (temporary file then rename), in the format its extension names
/// ([`picture_format`]): PNG, or JPEG at [`JPEG_QUALITY`] (without alpha: the pictures are opaque).
///
/// # Errors
/// [`PictureError::Format`] for an unsupported extension (nothing is written),
/// [`PictureError::Encode`] or [`PictureError::Write`], each naming the path.
pub fn write_picture(path: &Path, img: &image::RgbaImage) -> Result<(), PictureError> {
    let encode = |source| PictureError::Encode {
        path: path.to_path_buf(),
        source,
    };
    let bytes = match picture_format(path)? {
        image::ImageFormat::Jpeg => {
            let rgb = image::DynamicImage::ImageRgba8(img.clone()).to_rgb8();
            let mut out = Vec::new();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
                .encode_image(&rgb)
                .map_err(encode)?;
            out
        }
        _ => png_bytes(img).map_err(encode)?,
    };
    write_atomic(path, &bytes).map_err(PictureError::Write)
}

/// Deletes the temporary files of the writes in progress and exits with status 130 (the shell's
/// code for SIGINT). Holds the registry while exiting, so no write in progress renames its file
/// into place afterwards. For signal handlers.
pub fn exit_interrupted() -> ! {
    let list = pending();
    for p in list.iter() {
        let _ = std::fs::remove_file(p);
    }
    eprintln!("\ninterrupted");
    std::process::exit(130)
}

/// Installs [`exit_interrupted`] as the handler of Ctrl-C, SIGTERM and SIGHUP (for commands
/// without a handler of their own).
///
/// # Errors
/// When a handler is already installed (ctrlc allows one per process).
#[cfg(not(target_arch = "wasm32"))]
pub fn install_interrupt_cleanup() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(|| exit_interrupted())
}

/// `p` as one key per file: its folder canonicalised where it exists, so that another spelling of
/// the folder (`./a.csv`, `dir/../a.csv`) names the same file.
pub fn file_key(p: &Path) -> PathBuf {
    let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = parent
        .unwrap_or(Path::new("."))
        .canonicalize()
        .unwrap_or_else(|_| parent.unwrap_or(Path::new(".")).to_path_buf());
    dir.join(p.file_name().unwrap_or_default())
}

/// Checks, before any work, that the file `p` can go where it is named: its folder exists, is a
/// folder, and takes a new file (a temporary one is made there and removed), so that a run that
/// would only fail to write at its end is refused at its start.
///
/// # Errors
/// [`std::io::ErrorKind::NotFound`] naming the file and why its folder takes no file (missing,
/// a file, or a file system that takes none, as [`write_atomic`] words it), or the file
/// system's own error (no permission, …).
pub fn check_folder_of(p: &Path) -> std::io::Result<()> {
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => return Ok(()),
    };
    let shown = show_path(p);
    if !dir.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{shown}: {}", folder_fault(dir)),
        ));
    }
    tempfile::Builder::new()
        .prefix(".boids-check.")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| temp_file_error(&shown, dir, e))
}

/// The error of making a temporary file in `dir` for the output shown as `shown`: why the folder
/// takes no file ([`folder_fault`]), no permission, or the file system's own words.
fn temp_file_error(shown: &str, dir: &Path, e: std::io::Error) -> std::io::Error {
    let message = match e.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory => {
            format!("{shown}: {}", folder_fault(dir))
        }
        std::io::ErrorKind::PermissionDenied => {
            format!(
                "{shown}: no permission to create a file in {}",
                show_path(dir)
            )
        }
        _ => format!("{shown}: {e}"),
    };
    std::io::Error::new(e.kind(), message)
}

/// Why no file can be made in `dir`, where making one failed as if it were missing: it does not
/// exist, it is a file, or it is a folder whose file system takes no new files (`/proc`).
fn folder_fault(dir: &Path) -> String {
    let d = show_path(dir);
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {
            format!("the folder {d} takes no new files (its file system's rule)")
        }
        Ok(_) => format!("{d} is a file, not a folder"),
        // The nearest folder above that exists, or the file that stands where one should.
        Err(_) => match dir.ancestors().skip(1).find(|a| a.exists()) {
            Some(a) if !a.is_dir() => format!("{} is a file, not a folder", show_path(a)),
            _ => format!("the folder {d} does not exist"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_short_values_and_cuts_long_ones() {
        assert_eq!(clip("0.5"), "0.5");
        let long = "x".repeat(100_000);
        let c = clip(&long);
        assert!(c.starts_with(&"x".repeat(QUOTE_CHARS)), "{c}");
        assert!(c.ends_with("… (100000 characters)"), "{c}");
        assert!(c.len() < 100, "{}", c.len());
        assert_eq!(clip(&c), c, "clipping twice changes nothing");
        assert_eq!(
            clip_message(&format!("a \"{c}\" b")),
            format!("a \"{c}\" b")
        );
    }

    #[test]
    fn clip_message_cuts_quoted_and_bare_runs() {
        let m = format!(
            "invalid type: string \"{}\", expected f32",
            "y".repeat(50_000)
        );
        let c = clip_message(&m);
        assert!(c.len() < 200 && c.contains("expected f32") && c.contains("(50000 characters)"));
        let m = format!("bad {} here", "z".repeat(50_000));
        let c = clip_message(&m);
        assert!(c.len() < 300 && c.ends_with(" here"), "{c}");
        assert_eq!(clip_message("plain \"short\" text"), "plain \"short\" text");
    }

    /// An unsupported extension is its own kind, refused before anything is written: a caller
    /// can tell it from a failed write.
    #[test]
    fn an_unsupported_extension_is_a_format_error() {
        let dir = tempfile::tempdir().unwrap();
        let img = image::RgbaImage::new(2, 2);
        let p = dir.path().join("a.bmp");
        let e = write_picture(&p, &img).unwrap_err();
        assert!(
            matches!(&e, PictureError::Format { path } if *path == p),
            "{e:?}"
        );
        assert!(
            e.to_string().ends_with("supported: .png, .jpg, .jpeg"),
            "{e}"
        );
        assert!(!p.exists());
        let missing = dir.path().join("no/such/folder/a.png");
        let e = write_picture(&missing, &img).unwrap_err();
        assert!(matches!(e, PictureError::Write(_)), "{e:?}");
        assert!(e.to_string().contains("does not exist"), "{e}");
    }

    /// A file's folder that is a file, or a folder whose file system takes no files (`/proc`),
    /// is named as such, before a run and when writing, not as a folder that does not exist.
    #[test]
    fn an_output_under_a_file_or_proc_says_which() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("afile");
        std::fs::write(&file, "kept").unwrap();
        let under = file.join("x.csv");
        let deeper = file.join("sub/x.csv");
        for e in [
            check_folder_of(&under).unwrap_err(),
            write_atomic(&under, b"x").unwrap_err(),
            check_folder_of(&deeper).unwrap_err(),
            write_atomic(&deeper, b"x").unwrap_err(),
        ] {
            assert!(
                e.to_string().contains("afile is a file, not a folder"),
                "{e}"
            );
        }
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
        if cfg!(target_os = "linux") && Path::new("/proc/self").is_dir() {
            // Root is told the file system's rule; another user may be told the permission first.
            // Before a run (check_folder_of) as when writing.
            let target = Path::new("/proc/boids-test.csv");
            for e in [
                check_folder_of(target).unwrap_err(),
                write_atomic(target, b"x").unwrap_err(),
            ] {
                let e = e.to_string();
                assert!(
                    e.contains("/proc takes no new files") || e.contains("no permission"),
                    "{e}"
                );
                assert!(!e.contains("does not exist"), "{e}");
            }
        }
        // A folder that takes files passes, and keeps no file of the check.
        check_folder_of(&dir.path().join("out.csv")).unwrap();
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only afile: {left:?}");
    }

    #[test]
    fn sizes_in_words() {
        assert_eq!(size_words(16 << 20), "16 MiB");
        assert_eq!(size_words(4096), "4 KiB");
        assert_eq!(size_words(100), "100 bytes");
    }
}
