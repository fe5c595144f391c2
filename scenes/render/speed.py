"""Render-time savings that change no pixel, measured with ``make bench``, and the encoder's settings.

* A held frame (every ``wait``, every beat's reading time) reaches Manim's encoder as one
  RGBA array to be written N times; Manim converts it to YUV and hands it to x264 N times.
  :func:`write_frame` (Manim's ``VideoSegmentEncoder.write_frame``, replaced in a render worker by
  ``scenes/render/patches.py``) converts it once and sends the same YUV frame N times with new
  timestamps: the encoder sees the same input, so the bitstream is the same.
* x264 settings for flat graphics (``ENCODER_OPTIONS``): ``tune=animation`` (more
  reference frames and deblocking suited to flat areas and sharp edges) and a faster
  preset; the quality target (CRF) stays Manim's 23.  Compared in ``make bench`` for time,
  size and frame difference.
"""

from __future__ import annotations

from fractions import Fraction

# x264 for lecture graphics; see the module docstring and `make bench`
ENCODER_OPTIONS = {"crf": "23", "preset": "veryfast", "tune": "animation"}


def write_frame(self, pixels, *, repeat: int = 1) -> None:
    """``VideoSegmentEncoder.write_frame``: a frame repeated ``repeat`` times is converted to YUV once."""
    import av

    self._validate_frame(pixels, repeat)
    time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
    try:
        frame = av.VideoFrame.from_ndarray(pixels, format="rgba")
        if repeat > 1:  # one RGBA -> YUV conversion for the whole hold
            frame = frame.reformat(format=self.spec.pixel_format)
        for _ in range(repeat):
            frame.pts = self._next_pts
            frame.time_base = time_base
            self._next_pts += 1
            for packet in self._stream.encode(frame):
                self._container.mux(packet)
    except BaseException as error:
        raise self._operation_error("encode", error) from error
