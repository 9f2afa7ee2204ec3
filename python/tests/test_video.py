"""A video recording of the app becomes an MP4 without ffmpeg (the `h264` feature: OpenH264 and
a pure-Rust MP4 muxer), read back here by another decoder, PyAV's (FFmpeg's libavcodec): its
frame count, size and rate are the recording's. Needs a display, as the app does (CI runs Xvfb);
without one it is skipped, visibly."""

import os

import pytest

av = pytest.importorskip("av")


@pytest.mark.skipif(not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")),
                    reason="SKIPPED: the app needs a display (DISPLAY or WAYLAND_DISPLAY)")
@pytest.mark.parametrize("size", [(320, 240), (161, 97)])
def test_a_recording_is_an_mp4_another_decoder_reads(cli, tmp_path, size):
    w, h = size
    out = tmp_path / "rec"
    cli("run", "--boids", 2000, "--backend", "cpu", "--width", w, "--height", h,
        "--record", out, "--record-frames", 24, "--record-fps", 24)
    mp4 = out / "recording.mp4"
    assert mp4.is_file(), sorted(p.name for p in out.iterdir())
    with av.open(str(mp4)) as c:
        stream = c.streams.video[0]
        assert stream.codec_context.name == "h264"
        frames = list(c.decode(stream))
        # Read while the container is open (PyAV 18.1.1 refuses a closed container's streams).
        rate = stream.average_rate
    # Odd sides are padded to even ones (4:2:0 chroma); nothing else changes size.
    assert len(frames) == 24
    assert (frames[0].width, frames[0].height) == (w + w % 2, h + h % 2)
    assert rate == 24
    # The decoded picture is the recorded one: a frame's mean brightness within a few levels of
    # the PNG's (lossy coding), and the picture is not blank.
    from PIL import Image
    import numpy as np
    png = np.asarray(Image.open(out / "frame-000012.png").convert("RGB"), dtype=float)
    dec = frames[11].to_ndarray(format="rgb24").astype(float)[:h, :w]
    assert png.std() > 1.0
    assert abs(png.mean() - dec.mean()) < 3.0, (png.mean(), dec.mean())
