"""A student's numbers as a clip's data source (``clips render --student``, ``clips audit --student``).

The clips draw mathcore's arrays by default.  Given a :class:`StudentSource` (``ClipScene(student=...)``),
a clip that shows one of the notebook's functions (its ``STUDENT`` names the property: ``"causal"``,
``"permutation_matrix"``, ...) builds its data with ``student_data(cfg, source)`` instead of ``build_data(cfg)``:
the lecture's picture on the student's arrays.  The source is plain data (arrays and verdicts), made by the
render command from ``microscope.student_run`` in the parent process and handed to the render worker as a
file (:meth:`StudentSource.save`, :meth:`StudentSource.load`): the student's code never runs in a worker, and
nothing here imports ``microscope`` (the kit sits below it).

Three cases, one mechanism:

* the property holds: the clip is the lecture's clip on the student's numbers;
* it fails: the clip marks where and by how much, and a beat whose lecture sentence would be false says its
  failing variant: beat ``key`` becomes ``key_fail`` (:func:`fail_key`), whose sentence is the entry ``key`` of
  the clip's ``[slug.student_fail]`` narration table (spoken as ``[slug.student_fail_say]`` says, when it has
  the entry); the close gives the verdict ✗ with its figure;
* the function raised, timed out, is missing or returned something unusable (no arrays to draw): the clip
  shows :func:`error_card` (the one-line message, in the house style) under ``[slug.student_fail].error``, then
  ends.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

FAIL = "_fail"  # a beat's failing variant: its key with this suffix (see fail_key)
ERROR_KEY = "error" + FAIL  # the error card's beat: [slug.student_fail].error
FORMAT = 1


def fail_key(key: str, failing: bool) -> str:
    """Beat ``key``'s key: ``key_fail`` when the student's numbers make its lecture sentence false."""
    return key + FAIL if failing else key


@dataclass(frozen=True)
class Property:
    """One of the notebook's properties as the checks judged the student's code: ``status`` (pass, fail,
    error, missing, skipped), the measured ``figure`` and ``value``, the one-line ``detail`` and ``message``
    (the figure and why: what an error card shows), and the arrays it was measured on."""

    key: str
    title: str
    status: str
    figure: str = ""
    value: float | None = None
    detail: str = ""
    arrays: dict = field(default_factory=dict, repr=False)

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    @property
    def drawable(self) -> bool:
        """There are arrays to draw (a function that raised, hung, is missing or returned a wrong shape
        gives none: the clip shows its error card)."""
        return bool(self.arrays)

    @property
    def message(self) -> str:
        return "; ".join(x for x in (self.figure, self.detail) if x) or self.status

    @property
    def failure(self) -> str:
        """What went wrong, as a sentence can say it: "it timed out", "it raised an error", ..."""
        if self.status == "missing":
            return "it is not defined"
        if self.status == "skipped":
            return "its numbers could not be read"
        if "timed out" in self.detail:
            return "it timed out"
        if self.status == "error":
            return "it stopped with an error"
        return "it returned something this clip cannot draw"


@dataclass(frozen=True)
class StudentSource:
    """A student's run: ``name`` (the output folder is ``student-<name>``) and every property."""

    name: str
    properties: dict  # key -> Property

    def prop(self, key: str) -> Property:
        p = self.properties.get(key)
        return p if p is not None else Property(key, key, "missing", detail=f"{key}: nothing was checked")

    def array(self, key: str, name: str) -> np.ndarray | None:
        return self.prop(key).arrays.get(name)

    # ------------------------------------------------------------------ as a file (no pickle)
    def meta(self) -> dict:
        return {"format": FORMAT, "name": self.name,
                "properties": {k: {"title": p.title, "status": p.status, "figure": p.figure, "value": p.value,
                                   "detail": p.detail, "arrays": sorted(p.arrays)}
                               for k, p in sorted(self.properties.items())}}

    def digest(self) -> str:
        """What the student's clips depend on: every verdict and every array's dtype, shape and bytes."""
        h = hashlib.sha256(json.dumps(self.meta(), sort_keys=True).encode())
        for k, p in sorted(self.properties.items()):
            for n, a in sorted(p.arrays.items()):
                a = np.ascontiguousarray(a)
                h.update(f"{k}.{n}|{a.dtype.str}|{a.shape}".encode())
                h.update(a.tobytes())
        return h.hexdigest()

    def save(self, path: Path) -> Path:
        """Write the source as one ``.npz`` (the verdicts as JSON inside it); read back with :meth:`load`."""
        arrays = {f"{k}.{n}": np.asarray(a) for k, p in self.properties.items() for n, a in p.arrays.items()}
        meta = np.frombuffer(json.dumps(self.meta(), sort_keys=True).encode(), dtype=np.uint8)
        path = Path(path)
        tmp = path.with_name(path.name + ".partial")
        with open(tmp, "wb") as f:
            np.savez(f, __meta__=meta, **arrays)
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, path: Path) -> "StudentSource":
        with np.load(Path(path), allow_pickle=False) as z:
            meta = json.loads(bytes(z["__meta__"]).decode())
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path}: not a student source of format {FORMAT}")
            props = {}
            for k, m in meta["properties"].items():
                arrays = {n: np.array(z[f"{k}.{n}"]) for n in m["arrays"]}
                props[k] = Property(k, m["title"], m["status"], m["figure"], m["value"], m["detail"], arrays)
        return cls(meta["name"], props)


def error_card(region, title: str, message: str):
    """The error card, in the house style of the lecture's cards (``cards.panel``) but in the failed
    colour: ``title`` (what did not run) over the one-line ``message`` (wrapped, never a traceback),
    filling ``region``.  ``.title`` and ``.message`` are the two texts (the error beat's claims)."""
    from manim import DOWN, LEFT, UP, VGroup

    from .binding import role
    from .cards import fit_common, panel
    from .compose import GAP
    from .layout import Region
    from .theme import FAILED, FG, HEADING, LABEL

    inner = region.inset(GAP.section, GAP.section)
    head = fit_common([title], inner.width, HEADING, FG, max_lines=2, weight="BOLD")[0]
    body = fit_common([message], inner.width, LABEL, FG, max_lines=6)[0]
    text = VGroup(head, body).arrange(DOWN, aligned_edge=LEFT, buff=GAP.wide)
    if text.height > inner.height or text.width > inner.width:
        text.scale(min(inner.height / text.height, inner.width / text.width))
    h = text.height + 2 * GAP.section
    w = region.width
    box_region = Region(region.center[0] - w / 2, region.center[0] + w / 2, region.center[1] - h / 2,
                        region.center[1] + h / 2, "error card")
    box = role(panel(box_region, FAILED), "failed")
    text.move_to(box.get_center()).align_to(box, LEFT).shift(GAP.section * (1 - 0) * 1.0 * np.array([1, 0, 0]))
    text.align_to(box, UP).shift(GAP.section * DOWN)
    head._quoted = body._quoted = True  # the student's code's own words (the audit's notation check skips them)
    card = VGroup(box, text)
    card.box, card.title, card.message = box, head, body
    return card
