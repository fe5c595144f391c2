"""Beat-level reuse: a clip's video is made of one segment per ``play``/``wait`` (Manim's partial
movie files), each cached by its content, so an edit re-encodes only the segments it changed.

How a render goes (``scenes/render/patches.py`` hands Manim the functions below in a render worker):

* Manim's renderer asks for a key at every ``play`` and ``wait`` before drawing anything; it
  gets :func:`segment_key`: a digest of *what is drawn*: every mobject on screen (type, points,
  fill, stroke, sheen, z-index, image pixels, updaters and its plain attributes), every
  animation (type, run time, rate function's code, parameters, target mobjects, sub-animations,
  closures' code and values), the camera (pixels, frame, background), the encoder settings
  and the versions of the libraries and of the code that turns them into pixels (this module,
  ``speed.py``).  The position of the segment in the clip is *not* in the key: an edited
  caption that lengthens one beat moves every later segment in time but changes none.
  (Manim's own key, ``get_hash_from_play_call``, serialises every mobject to JSON: 38 of 62 s
  of a warm-cache render of clip 03 at 480p; this digest reads the same arrays in place.)
* A segment whose key (and quality) is kept in the cache (kind ``segments``, with the clock of the
  frames drawing it added) is not drawn: the cache checks the file against its checksum and links it
  into the render's segment folder (a scratch folder on the cache's file system: nothing is copied),
  and the scene jumps to the segment's end state as Manim does for its own cache hits.  Any other
  segment is drawn and encoded into a file written aside and renamed into place when complete, then
  linked into the cache, so an interrupted render never leaves a half segment under a real key.
* Manim joins the segments by copying their packets (``combine_to_movie``), as it does for a
  full render; each segment is an independent H.264 stream starting with a key frame, so the
  joined file of a partly cached render is the same bits as a full render's (``tests/test_reuse.py``
  compares them).
* ``force`` draws every segment (and refreshes the cache).  The cache's size limit covers segments as it
  covers every kind (least recently used first).

The caption track, the beats' times and the voice come from running the clip's ``construct``
in full (only drawing is skipped), so they are always the clip's current ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import types
from pathlib import Path

import numpy as np


TMP_MARK = ".partial-"

# what the Cairo camera reads of a mobject to draw it (VMobject, ImageMobject, PMobject), and a
# text's own string (its outlines are in ``points``; the string keeps two texts of equal shape apart)
_DRAWN_ARRAYS = ("points", "fill_rgbas", "stroke_rgbas", "background_stroke_rgbas", "sheen_direction",
                 "pixel_array", "rgbas")
_DRAWN_SCALARS = ("stroke_width", "background_stroke_width", "sheen_factor", "z_index", "joint_type", "cap_style",
                  "shade_in_3d", "resampling_algorithm", "invert", "text", "font", "font_size", "close_new_points")
_DEBUG = [] if os.environ.get("CLIPS_SEGMENT_DEBUG") else None
_state = {"hits": 0, "drawn": 0, "force": False, "salt": b"", "clocks": {}}


# ------------------------------------------------------------------ the digest
class _Digest:
    """Feeds a description of drawable state into one sha256, depth-first, deterministically
    (no ids, no addresses); an object met twice is referred to by the order it was first met."""

    def __init__(self, salt: bytes):
        self.h = hashlib.sha256(salt)
        self.seen: dict[int, int] = {}
        self.keep: list = []  # objects whose ids are in `seen` stay alive for the digest's life

    def tag(self, s: str) -> None:
        if _DEBUG is not None:
            _DEBUG.append(s)
        b = s.encode("utf-8", "surrogatepass")
        self.h.update(struct.pack("<I", len(b)))
        self.h.update(b)

    def array(self, a: np.ndarray) -> None:
        if a.dtype.hasobject:
            self.tag(f"objarray{a.shape}")
            for x in a.ravel():
                self.value(x, 4)
            return
        self.tag(f"nd{a.dtype.str}{a.shape}")
        self.h.update(np.ascontiguousarray(a).tobytes())

    def _ref(self, obj) -> bool:
        """True (and a back-reference fed) if ``obj`` was described before."""
        k = id(obj)
        if k in self.seen:
            self.tag(f"ref{self.seen[k]}")
            return True
        self.seen[k] = len(self.seen)
        self.keep.append(obj)
        return False

    def value(self, v, depth: int = 6) -> None:
        from manim import Animation, Mobject, Scene
        from manim.camera.camera import Camera

        if v is None or isinstance(v, (bool, int, float, complex, str, bytes)):
            self.tag(f"{type(v).__name__}:{v!r}")
            return
        if isinstance(v, np.generic):
            self.tag(f"{type(v).__name__}:{v!r}")
            return
        if isinstance(v, np.ndarray):
            self.array(v)
            return
        if isinstance(v, (Scene, Camera, types.ModuleType, type)):
            self.tag(f"{type(v).__name__}:{getattr(v, '__qualname__', getattr(v, '__name__', ''))}")
            return
        if depth <= 0:
            self.tag(f"deep:{type(v).__qualname__}")
            return
        if isinstance(v, Mobject):
            self.mobject(v, depth)
            return
        if isinstance(v, (types.FunctionType, types.MethodType, types.BuiltinFunctionType)):
            self.function(v, depth)
            return
        if isinstance(v, (list, tuple)):
            self.tag(f"{type(v).__name__}[{len(v)}]")
            for x in v:
                self.value(x, depth - 1)
            return
        if isinstance(v, dict):
            self.tag(f"dict[{len(v)}]")
            for k in sorted(v, key=repr):
                self.tag(repr(k))
                self.value(v[k], depth - 1)
            return
        if isinstance(v, (set, frozenset)):
            self.tag(f"set[{len(v)}]")
            for x in sorted(v, key=repr):
                self.value(x, depth - 1)
            return
        if self._ref(v):
            return
        if isinstance(v, Animation):
            self.animation(v, depth)
            return
        import functools

        if isinstance(v, functools.partial):
            self.tag("partial")
            self.value(v.func, depth - 1)
            self.value(v.args, depth - 1)
            self.value(v.keywords, depth - 1)
            return
        d = getattr(v, "__dict__", None)
        self.tag(f"obj:{type(v).__module__}.{type(v).__qualname__}")
        if isinstance(d, dict):
            self.value({k: x for k, x in d.items()}, depth - 1)
        else:
            self.tag(repr(v))

    def code(self, co: types.CodeType) -> None:
        self.tag(f"code:{co.co_qualname if hasattr(co, 'co_qualname') else co.co_name}")
        self.h.update(co.co_code)
        self.tag(repr(co.co_names))
        for c in co.co_consts:
            if isinstance(c, types.CodeType):
                self.code(c)
            else:
                self.tag(repr(c))

    def function(self, f, depth: int) -> None:
        if isinstance(f, types.MethodType):
            self.tag("method")
            self.value(f.__self__, depth - 1)
            f = f.__func__
        if isinstance(f, types.BuiltinFunctionType):
            self.tag(f"builtin:{getattr(f, '__qualname__', f.__name__)}")
            return
        if self._ref(f):
            return
        self.code(f.__code__)
        for name in f.__code__.co_names:  # plain module constants the function reads
            g = f.__globals__.get(name)
            if g is None or isinstance(g, (bool, int, float, str, np.ndarray)):
                self.tag(name)
                self.value(g, 1)
        self.value(f.__defaults__, depth - 1)
        if f.__closure__:
            for cell in f.__closure__:
                try:
                    self.value(cell.cell_contents, depth - 1)
                except ValueError:  # an empty cell
                    self.tag("empty-cell")

    def mobject(self, m, depth: int) -> None:
        """A mobject and its family as the camera draws them: every member's type, points, colours,
        strokes, gradient, z-index, text and image pixels, in drawing order, and its updaters."""
        if self._ref(m):
            return
        h = self.h
        for sm in m.get_family():
            if sm is not m and self._ref(sm):
                continue
            dct = sm.__dict__
            self.tag(f"{type(sm).__module__}.{type(sm).__qualname__}:{len(sm.submobjects)}:"
                     + "|".join(repr(dct.get(k)) for k in _DRAWN_SCALARS if k in dct))
            for k in _DRAWN_ARRAYS:
                a = dct.get(k)
                if a is not None:
                    a = np.asarray(a)
                    h.update(f"{k}{a.dtype.str}{a.shape}".encode())
                    h.update(np.ascontiguousarray(a).tobytes())
            ups = dct.get("updaters")
            if ups:
                self.tag(f"updaters[{len(ups)}]")
                for u in ups:
                    self.value(u, depth - 1)

    def animation(self, a, depth: int) -> None:
        self.tag(f"anim:{type(a).__module__}.{type(a).__qualname__}")
        for k in sorted(a.__dict__):
            self.tag(k)
            self.value(a.__dict__[k], depth - 1)

    def hexdigest(self) -> str:
        return self.h.hexdigest()[:48]


def segment_key(scene, camera, animations, mobjects, *, backend: str = "cairo", encoder_fingerprint: str = "",
                renderer_state=None) -> str:
    """The content key of one ``play``/``wait`` segment (signature of Manim's
    ``get_hash_from_play_call``, which it replaces)."""
    d = _Digest(_state["salt"])
    d.tag(f"backend:{backend}|encoder:{encoder_fingerprint}")
    d.tag(f"camera:{type(camera).__qualname__}:{camera.pixel_width}x{camera.pixel_height}:"
          f"{camera.frame_width!r}x{camera.frame_height!r}:{camera.background_opacity!r}")
    d.value(np.asarray(camera.frame_center, dtype=float), 1)
    d.tag(str(camera.background_color))
    d.tag(f"animations[{len(animations)}]")
    for a in animations:
        d.value(a, 8)
    d.tag(f"mobjects[{len(mobjects)}]")
    for m in mobjects:
        d.value(m, 8)
    d.value(renderer_state, 3)
    if _DEBUG is not None:
        with open(os.environ["CLIPS_SEGMENT_DEBUG"], "a", encoding="utf-8") as f:
            f.write("\n".join(_DEBUG) + "\n=====\n")
        _DEBUG.clear()
    return d.hexdigest()


def salt() -> bytes:
    """What turns a segment's content into pixels: the libraries, and the code of this module and speed.py."""
    from .facts import library_versions

    here = Path(__file__).resolve().parent
    parts = [";".join(library_versions()).encode()] + [(here / f).read_bytes() for f in ("segments.py", "speed.py")]
    return hashlib.sha256(b"\0".join(parts)).digest()


# ------------------------------------------------------------------ what replaces Manim's (scenes/render/patches.py)
ORIGINAL: dict = {}  # Manim's own methods these wrap, by name, saved by patches.install_render


def begin(force: bool, quality: str, store) -> None:
    """A render starts: segments of ``quality`` come from (and go to) ``store``; ``force`` takes none from it."""
    _state.update(force=force, salt=salt(), hits=0, drawn=0, adds=[], hit=None, clocks={}, quality=quality,
                  store=store, counter=0)


def _key(h: str) -> str:
    return f"{h}-{_state['quality']}"


def encoder_init(self, *, target, spec):
    """``VideoSegmentEncoder.__init__``: encode into a temporary name of this process's own."""
    final = Path(target)
    _state["counter"] += 1
    tmp = final.with_name(f"{final.stem}{TMP_MARK}{os.getpid()}-{_state['counter']}{final.suffix}")
    ORIGINAL["encoder_init"](self, target=tmp, spec=spec)
    self._final = final


def encoder_finish(self):
    """``VideoSegmentEncoder.finish``: a complete segment is renamed into place and kept in the cache."""
    ORIGINAL["encoder_finish"](self)  # raises if the encoder failed: the temporary file is then removed by abort()
    os.replace(self.target, self._final)
    self.target = self._final
    _state["drawn"] += 1
    _state["store"].put_file("segments", _key(self._final.stem), self._final)


def is_already_cached(self, hash_invocation: str) -> bool:
    """``SceneFileWriter.is_already_cached``: drawn earlier in this render, or kept in the cache (checked,
    linked into this render's segment folder) with the clock of how drawing it advanced the scene."""
    if _state["force"]:
        return False
    adds = _state["clocks"].get(hash_invocation)
    if adds is None or not ORIGINAL["is_already_cached"](self, hash_invocation):
        store = _state["store"]
        raw = store.get("segments", _key(hash_invocation) + "-clock")
        try:
            adds = [int(n) for n in json.loads(raw)] if raw is not None else None
        except (ValueError, TypeError):
            adds = None
        if adds is None or not store.link("segments", _key(hash_invocation), self.output_plan.segment_path(hash_invocation)):
            return False
    _state["hits"] += 1
    _state["hit"] = adds
    return True


def add_frame(self, frame, num_frames: int = 1):
    """``CairoRenderer.add_frame``: also count the frames each write adds (the segment's clock)."""
    if not self.skip_animations:
        _state["adds"].append(int(num_frames))
    ORIGINAL["add_frame"](self, frame, num_frames)


def play(self, scene, *args, **kwargs):
    """``CairoRenderer.play``: a segment taken from the cache advances the clock exactly as drawing it did
    (frame by frame, or a held frame at once), not by the animation's nominal length as Manim's skip does,
    so every later beat starts on the same frame as in a full render; a drawn one keeps its clock."""
    t0 = self.time
    _state.update(adds=[], hit=None)
    ORIGINAL["play"](self, scene, *args, **kwargs)
    key = self.animations_hashes[-1] if self.animations_hashes else None
    if _state["hit"] is not None:
        dt = 1 / self.camera.frame_rate
        self.time = t0
        for n in _state["hit"]:
            self.time += n * dt
        _state["hit"] = None
        self.static_image = None  # (the held frame a cached play would have drawn)
    elif key is not None and not key.startswith("uncached_"):
        _state["clocks"][key] = list(_state["adds"])
        _state["store"].put("segments", _key(key) + "-clock", json.dumps(_state["adds"]).encode())


def update_frame(self, *args, **kwargs):
    """``CairoRenderer.update_frame``: nothing of a segment taken from the cache is drawn."""
    if _state["hit"] is not None:
        return None
    return ORIGINAL["update_frame"](self, *args, **kwargs)


def counts() -> dict:
    """Segments drawn and taken from the cache by this process's render."""
    return {"drawn": _state["drawn"], "reused": _state["hits"]}
