"""Every change this project makes to Manim, in one place: what is replaced, why, and where it is in force.

Nothing is patched by importing a module.  A render worker calls :func:`install_render` before it builds its
clip; a process that builds clips without rendering them (``clips audit``, ``clips handout``, the tests)
calls :func:`install_building`.  A clip rendered with plain ``manim`` runs Manim as it is, and draws the same.

=====================  ==================================================  ==============================
What                   Replaced (Manim 0.22)                               Where in force
=====================  ==================================================  ==============================
copies                 ``Mobject.__deepcopy__``; ``__deepcopy__`` of        every process that builds
                       ``ManimColor``, svgelements ``Path``, ``Matrix``,    clips (both install functions)
                       ``Color``, ``Shape``
typeset files          ``Text._text2svg``; ``typst_to_svg_file`` as         render workers
                       ``typst_mobject`` calls it
segment keys           ``cairo_renderer.get_hash_from_play_call``           render workers
segments from cache    ``SceneFileWriter.is_already_cached``;               render workers
                       ``CairoRenderer.play``, ``add_frame``,
                       ``update_frame``
atomic segments        ``VideoSegmentEncoder.__init__``, ``finish``         render workers
held frames            ``VideoSegmentEncoder.write_frame``                  render workers
progress               ``Scene.play``                                       render workers
skipped fades          ``FadeIn``/``FadeOut`` ``begin``, ``interpolate``,   inside an audit that draws
                       ``finish``; ``FadeOut.clean_up_from_scene``          nothing, restored after it
draw nothing           ``renderer.update_frame`` and                        one audited scene (instance
                       ``save_static_frame_data`` of one scene              attributes, not classes)
=====================  ==================================================  ==============================

Why, each (the frames are the same bits with and without every one of them; the tests compare):

* **copies** (``scenes/kit/copying.py``): Manim copies mobjects all the time (every label taken from the kit's
  cache, the start and target of every animation); sharing what nothing mutates and copying the rest without
  going through ``copy.deepcopy`` for what is already known was 44 % of a warm audit.
* **typeset files**: each SVG Pango or Typst writes is kept in the cache (kind ``svg``) and written back, checked,
  the next time the same label or formula is laid out (a render at another quality typesets nothing again); only
  the files a render uses, never the whole folder (which every render used to link, or copy when the output
  was on another file system).
* **segment keys**, **segments from cache**, **atomic segments** (``scenes/render/segments.py``): a play or wait
  is keyed by what it draws, read in place (Manim's own key serialises every mobject to JSON: 60 % of a cached
  render); a kept segment is linked from the cache and the clock advanced as drawing it did; a segment is
  written under a temporary name and renamed when complete, then kept.
* **held frames** (``scenes/render/speed.py``): a frame held N times is converted to YUV once, not N times.
* **progress** (``scenes/render/worker.py``): each animation played is reported to ``clips render``'s progress bar.
* **skipped fades** (``scenes/kit/skipfade.py``, entered by ``scenes.audit.beats.audit_clip``): a skipped plain
  fade copies nothing (34 % of the audits' time); only while an audit draws nothing.
* **draw nothing** (``scenes.audit.beats.audit_clip``): an audit that wants no picture draws none.
"""

from __future__ import annotations

_SAVED: dict[tuple[int, str], object] = {}


def _replace(owner, name: str, new):
    """Set ``owner.name`` to ``new`` and return what it was before this module first replaced it (``None``
    where it had none: ``copy.deepcopy`` then did the copying)."""
    key = (id(owner), name)
    if key not in _SAVED:
        _SAVED[key] = getattr(owner, name, None)
    setattr(owner, name, new)
    return _SAVED[key]


def install_building() -> None:
    """The copies (idempotent): for every process that builds clips."""
    import svgelements as se
    from manim import ManimColor
    from manim.mobject.mobject import Mobject

    from scenes.kit import copying

    for cls in (ManimColor, se.Path, se.Matrix, se.Color, se.Shape):
        _replace(cls, "__deepcopy__", copying.share)
    _replace(Mobject, "__deepcopy__", copying.mobject_deepcopy)
    copying.reset()


def install_render(on_play=None) -> None:
    """Everything a render worker uses (idempotent); ``on_play(n)`` is told each animation played.  The
    segments' cache and quality are set per render by ``segments.begin``."""
    import manim.mobject.text.typst_mobject as typst_mobject
    import manim.renderer.cairo_renderer as cr
    from manim import Scene, Text
    from manim.scene.scene_file_writer import SceneFileWriter
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    from . import segments, speed

    install_building()
    _replace(VideoSegmentEncoder, "write_frame", speed.write_frame)
    _replace(cr, "get_hash_from_play_call", segments.segment_key)
    original = segments.ORIGINAL
    original["encoder_init"] = _replace(VideoSegmentEncoder, "__init__", segments.encoder_init)
    original["encoder_finish"] = _replace(VideoSegmentEncoder, "finish", segments.encoder_finish)
    original["is_already_cached"] = _replace(SceneFileWriter, "is_already_cached", segments.is_already_cached)
    original["add_frame"] = _replace(cr.CairoRenderer, "add_frame", segments.add_frame)
    original["play"] = _replace(cr.CairoRenderer, "play", segments.play)
    original["update_frame"] = _replace(cr.CairoRenderer, "update_frame", segments.update_frame)
    _TYPESET["text"] = _replace(Text, "_text2svg", _text2svg)
    _TYPESET["typst"] = _replace(typst_mobject, "typst_to_svg_file", _typst_to_svg_file)
    _PLAY["original"] = _replace(Scene, "play", _counted_play)
    _PLAY["on_play"] = on_play
    _PLAY["played"] = 0


def install_held_frames() -> None:
    """The held frames alone (``make bench``'s floor: a held picture encoded as the render encodes it)."""
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    from . import speed

    _replace(VideoSegmentEncoder, "write_frame", speed.write_frame)


# ------------------------------------------------------------------ progress
_PLAY: dict = {"played": 0, "on_play": None}


def _counted_play(self, *args, **kwargs):
    """``Scene.play``: play, then tell the progress bar."""
    _PLAY["original"](self, *args, **kwargs)
    _PLAY["played"] += 1
    if _PLAY["on_play"] is not None:
        _PLAY["on_play"](_PLAY["played"])


def played() -> int:
    """Animations played in this process since :func:`install_render`."""
    return _PLAY["played"]


# ------------------------------------------------------------------ typeset files through the cache
_TYPESET: dict = {}


def _svg_key(kind: str, name: str, *extra) -> str:
    import hashlib

    from .facts import library_versions

    return hashlib.sha256("|".join((kind, name, *map(str, extra), *library_versions())).encode()).hexdigest()[:40]


def _through_cache(key: str, path, make):
    """``path`` as ``make()`` writes it: written from the cache when kept there, else made and kept.  Copied
    both ways, never linked: Manim rewrites a label's SVG in place after reading it (manimpango's
    ``remove_last_M``), which would rewrite the kept entry through a link."""
    from pathlib import Path

    from clipcache import store

    path = Path(path)
    if not path.exists():
        kept = store().get("svg", key)
        if kept is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(kept)
    fresh = not path.exists()
    out = make()
    if fresh and path.exists():
        store().put("svg", key, path.read_bytes())
    return out


def _text2svg(self, color):
    """``Text._text2svg``: Manim names the file by the text and its style; the canvas it is laid out on is in
    the key too (Pango wraps what is wider than the canvas)."""
    from manim import config

    name = self._text2hash(color)
    path = config.get_dir("text_dir") / f"{name}.svg"
    key = _svg_key("text", name, config.pixel_width, config.pixel_height)
    self.svg_entry = ("svg", key)  # a label drawn in a fallback font drops it with its file (theme._drop_svg)
    return _through_cache(key, path, lambda: _TYPESET["text"](self, color))


def _typst_to_svg_file(typst_code: str, preamble: str = "", text_size=None, font_paths=None):
    """``typst_to_svg_file``, as ``MathTypst`` calls it: Manim names the file by the whole source."""
    from manim import config
    from manim.utils import typst_file_writing as tw

    kw = {} if text_size is None else {"text_size": text_size}
    size = tw.TYPST_COMPILATION_FONT_SIZE if text_size is None else text_size
    name = tw._typst_hash(tw.TYPST_TEMPLATE.format(text_size=size, preamble=preamble, body=typst_code))
    path = config.get_dir("tex_dir") / f"{name}.svg"
    key = _svg_key("typst", name, *(font_paths or ()))
    return _through_cache(key, path, lambda: _TYPESET["typst"](typst_code, preamble, font_paths=font_paths, **kw))
