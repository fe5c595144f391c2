"""The widgets only clip 14 draws (``scenes/clips/c14_gpt2_to_llama.py``): kept beside it, out of the kit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Dot, Line, Mobject, Rectangle, VGroup, VMobject

from scenes.kit import numbers
from scenes.kit.binding import role
from scenes.kit.compose import GAP, column
from scenes.kit.layout import Region, background, place_annotations
from scenes.kit.plots import MAX_CELL, STROKE, Plot, bar
from scenes.kit.proofs import worded_line
from scenes.kit.theme import BG, DIM, FAILED, FG, HIGHLIGHT, SEEN, SMALL, UNSEEN, label
from scenes.kit.widgets import ColorBar, Heatmap


def edge_rows(image: Mobject, n_rows: int) -> VGroup:
    """"row 0" beside the top edge of ``image`` (a drawn table of ``n_rows`` rows) and "row n − 1" beside its
    bottom edge, on its left: the table's true height named where it starts and ends."""
    top = label("row 0", size=SMALL, color=DIM)
    bottom = label(f"row {numbers.count(n_rows - 1).text}", size=SMALL, color=DIM)
    top.next_to(image.get_corner(UP + LEFT), LEFT, buff=GAP.small).align_to(image, UP)
    bottom.next_to(image.get_corner(DOWN + LEFT), LEFT, buff=GAP.small).align_to(image, DOWN)
    return VGroup(top, bottom)


class TableView(VGroup):
    """GPT-2's learned table in ``region`` (clip 14): every sampled row and feature as a cell
    (``sample``, real entries) of a table ``n_rows`` tall, its edges named "row 0" and "row n_rows − 1"
    (``row_labels``), its last row capped by a rule in the wall's colour, and a corner (``corner``) shown
    large beside it with the colour bar of ``scale``; under the corner, the words in ``notes`` (one a line)."""

    def __init__(self, region: Region, sample: np.ndarray, corner: np.ndarray, scale, notes: Sequence[Mobject],
                 aspect: float = 1.0, n_rows: int | None = None, n_cols: int | None = None):
        super().__init__()
        rows, cols = sample.shape
        region = region.inset(GAP.tight)  # the corner's frame and the cap line stay inside
        n_rows = rows if n_rows is None else n_rows
        n_cols = cols if n_cols is None else n_cols
        gutter = label(f"row {numbers.count(n_rows - 1).text}", size=SMALL).width + GAP.small
        region = Region(region.left + gutter, region.right, region.bottom, region.top, "table")  # the row names
        cell = region.height / rows
        # ``aspect``: a cell's width over its height, so the drawn table keeps the real one's shape
        self.image = Heatmap(sample, scale, cell_size=(cell * aspect, cell) if aspect != 1.0 else cell)
        region.place(self.image, UP + LEFT)
        for r in self.image.cells:
            for sq in r:
                sq.set_stroke(width=STROKE / 4)
        self.frame = Rectangle(width=self.image.width, height=self.image.height, stroke_color=DIM,
                               stroke_width=STROKE * 2 / 3).move_to(self.image)
        self.row_labels = edge_rows(self.image, n_rows)
        yb = self.image.get_bottom()[1]
        self.cap_line = role(Line([self.image.get_left()[0] - GAP.hair, yb, 0],
                                  [self.image.get_right()[0] + GAP.hair, yb, 0], stroke_color=FAILED,
                                  stroke_width=STROKE * 3), "failed")
        side = Region(self.image.get_right()[0] + GAP.section, region.right, region.bottom, region.top, "zoom")
        zr, zc = corner.shape
        bar_probe = ColorBar(scale, height=1.0)
        self.notes = column(*notes, gap="small")
        tick_h = bar_probe.tick_labels[0].height  # the bar's end labels reach half a label past its ends
        zcell = min((side.width - bar_probe.width - GAP.normal) / zc,
                    (side.height - self.notes.height - GAP.normal - tick_h) / zr, MAX_CELL)
        self.zoom_map = Heatmap(corner, scale, cell_size=zcell)
        if zr * zc > 400:  # hundreds of small cells: colour alone, no grid of hairlines over them (each cell's edge
            for r in self.zoom_map.cells:  # in its own colour, so no seam of the page shows between two cells)
                for sq in r:
                    sq.set_stroke(color=sq.get_fill_color(), width=STROKE / 4, opacity=1.0)
        side.place(self.zoom_map, UP + LEFT)
        self.zoom_map.shift(tick_h / 2 * DOWN)
        self.colorbar = ColorBar(scale, height=self.zoom_map.height)
        self.colorbar.next_to(self.zoom_map, RIGHT, buff=GAP.small).align_to(self.zoom_map, UP)
        self.notes.next_to(VGroup(self.zoom_map, self.colorbar), DOWN, buff=GAP.normal).align_to(self.zoom_map, LEFT)
        # the corner's box at its true size on the drawn table: zr of n_rows rows by zc of n_cols features (the
        # clip enlarges the block one drawn cell stands for, so the box frames that cell), an outline, so the cell's
        # own colour shows inside it (the enlargement's first cell has it too: both are entry (0, 0))
        self.corner = role(Rectangle(width=self.image.width * zc / n_cols, height=self.image.height * zr / n_rows,
                                     stroke_color=HIGHLIGHT, stroke_width=STROKE, fill_opacity=0.0), "highlight")
        self.corner.move_to(self.image.get_corner(UP + LEFT), aligned_edge=UP + LEFT)
        # how much larger the enlarged corner is drawn than the same block on the table (one scale both ways: the
        # table keeps the real shape, the enlarged cells are square)
        self.zoom_factor = zcell / (self.image.height / n_rows)
        # the leaders leave the corner's box upward and run over the table's top edge, then fan out to the
        # enlarged corner's left edge: outside the grid's cells (review round 4: one cut across the grid)
        a = self.corner.get_corner(UP + RIGHT)
        over = max(self.frame.get_top()[1], a[1]) + GAP.small
        turn = (self.image.get_right()[0] + self.zoom_map.get_left()[0]) / 2
        # one leader to the enlargement, framed in the marker's colour (review round 5: two leaders sharing their
        # path to a fork above the table read as a bracket over it, not as a zoom out of its corner)
        path = [a, np.array([a[0], over, 0]), np.array([turn, over, 0]), self.zoom_map.get_corner(UP + LEFT)]
        frame = Rectangle(width=self.zoom_map.width + STROKE / 100, height=self.zoom_map.height + STROKE / 100,
                          stroke_color=HIGHLIGHT,
                          stroke_width=STROKE / 2).move_to(self.zoom_map)
        self.zoom_lines = role(VGroup(
            VMobject(stroke_color=HIGHLIGHT, stroke_width=STROKE / 2).set_points_as_corners(path), frame),
            "highlight")
        self.add(self.image, self.frame, self.row_labels)


def capped_table(sample: np.ndarray, scale, height: float, aspect: float = 1.0) -> VGroup:
    """The sampled table ``height`` tall (a cell ``aspect`` times as wide as tall), its last row capped by a
    rule in the wall's colour: ``[0]`` the heatmap (``.image``), ``[1]`` the rule (``.cap_line``)."""
    cell = height / sample.shape[0]
    image = Heatmap(sample, scale, cell_size=(cell * aspect, cell) if aspect != 1.0 else cell)
    for r in image.cells:
        for sq in r:
            sq.set_stroke(width=STROKE / 4)
    yb = image.get_bottom()[1]
    cap = role(Line([image.get_left()[0] - GAP.hair, yb, 0], [image.get_right()[0] + GAP.hair, yb, 0],
                    stroke_color=FAILED, stroke_width=STROKE * 3), "failed")
    g = VGroup(image, cap)
    g.image, g.cap_line = image, cap
    return g


def _packed(text: str, width: float) -> VGroup:
    """``text``'s lines ("\\n") as a left-aligned column, each line's parts ("|") joined as long as the line stays
    within ``width``: a band's words as few lines as its width allows, at their size."""
    lines = []
    for hard in text.split("\n"):
        parts = hard.split("|")
        cur = parts[0]
        for part in parts[1:]:
            if worded_line(f"{cur} {part}", size=SMALL).width <= width:
                cur = f"{cur} {part}"
            else:
                lines.append(cur)
                cur = part
        lines.append(cur)
    return column(*[worded_line(line, size=SMALL, color=FG) for line in lines], gap="hair", align=LEFT)


def _struck(text: Mobject, y: float) -> bool:
    """Whether a horizontal line at height ``y`` runs through the box of ``text`` (with a hair's margin)."""
    return text.get_bottom()[1] - GAP.hair < y < text.get_top()[1] + GAP.hair


def _crosses(text: Mobject, curve: Mobject) -> bool:
    """Whether any point of ``curve`` falls inside the box of ``text`` (one line of words, with a hair's margin)."""
    (l, b, _), (r, t, _) = text.get_corner(DOWN + LEFT), text.get_corner(UP + RIGHT)
    pts = curve.points
    return bool(np.any((pts[:, 0] > l - GAP.hair) & (pts[:, 0] < r + GAP.hair) & (pts[:, 1] > b - GAP.hair)
                       & (pts[:, 1] < t + GAP.hair)))


class WavelengthChart(VGroup):
    """LLaMA's RoPE (clip 14): ``wavelengths[k]`` (positions per full turn of every pair ``i``) on a
    log axis for each model ``k``, a curve named at its end (``names[k]``, with its period there,
    ``periods[k]``) and the first pair's period at the start (``start``); per model, its own train
    length ``Ls[k]`` as a dashed line in the seen colour and a band over the pairs that never complete
    a turn within it (``slow[k]`` of them, said by ``band_texts[k]``)."""

    def __init__(self, region: Region, wavelengths: Sequence[np.ndarray], y_range, colors, names: Sequence[Mobject],
                 Ls: Sequence[int], slow: Sequence[int], band_texts: Sequence[str], title: str | Mobject,
                 x_label: Mobject, start: Mobject):
        super().__init__()
        n_pairs = len(wavelengths[0])
        self.title = title if isinstance(title, Mobject) else label(title, size=SMALL, color=FG)
        # each band's words on the band itself, in the text colour (the pale blue beside LLaMA-2's blue read as
        # two blues, two meanings: review round 3); a line may carry maths (λᵢ > L)
        self.band_labels = [_packed(t, np.inf) for t in band_texts]
        self.L_labels = [role(worded_line((f"{n.text}: " if hasattr(n, "text") else "")
                                          + f"$L = {numbers.count(L).math}$", size=SMALL, color=SEEN), "seen")
                         for n, L in zip([m[0] for m in names], Ls)]
        lo = int(round(np.log10(y_range[0])))
        top_decade = int(np.floor(np.log10(max(float(np.max(w)) for w in wavelengths))))
        # the axis ends at the decade over the slowest pair's period (computed from the data: 2.6 × 10⁶ ends at
        # 10⁷; review round 4: two more decades left the top third empty all clip), one more only while a band's
        # words, on the band over its own curve, would be crossed by that curve
        for hi in range(top_decade + 1, top_decade + 4):
            y_range = (y_range[0], float(10 ** hi))
            y_ticks = [numbers.power(k).value for k in numbers.log_ticks(lo, hi, most=4)]
            x_ticks = [0, n_pairs // 2, n_pairs - 1]
            probe = Plot((0, n_pairs - 1), y_range, width=region.width, height=1.0, y_log=True, x_ticks=x_ticks,
                         y_ticks=y_ticks)
            below = probe.axes[0].get_y() - probe.x_tick_labels.get_bottom()[1] + GAP.tight + x_label.height
            room = probe.y_tick_labels.width + GAP.normal
            end_room = max(m.width for m in names) + GAP.normal
            above = self.title.height + GAP.small
            self.plot = p = Plot((0, n_pairs - 1), y_range, width=region.width - room - end_room,
                                 height=region.height - below - above, y_log=True, x_ticks=x_ticks, y_ticks=y_ticks)
            p.shift(np.array([region.left + room, region.bottom + below, 0]) - p.axes[0].get_start())
            self.x_label = x_label.next_to(p.x_tick_labels, DOWN, buff=GAP.tight).set_x(p.axes[0].get_center()[0])
            self.title.next_to(p.axes[1], UP, buff=GAP.small).align_to(p.axes[1], LEFT)
            i = np.arange(n_pairs)
            self.curves = VGroup()
            for k, wl in enumerate(wavelengths):
                c = p.curve(i, wl, color=colors[k], stroke_width=STROKE * 4 / 3)
                c.values = wl
                self.curves.add(c)
            x1 = p.axes[0].get_right()[0]
            ends = [p.to_point(n_pairs - 1, wl[-1]) for wl in wavelengths]
            # (a small gap, not a tight one: the yellow frame on a band runs up the axis's right end, review round 4)
            self.end_labels = place_annotations(list(names), ends, side=RIGHT, buff=GAP.small, gap=GAP.small,
                                                bounds=(p.axes[0].get_y(), p.axes[1].get_top()[1]))
            # (under the plot's top: over it, at the right, stand the bands' words, which the names would run into)
            self.names = VGroup(*names)
            # the first pair's period at the curves' start (every base starts at 2π), over the start point
            # under the curves' start, just over the axis, where every curve is still above it
            self.start = start.move_to(p.axes[0].get_start(), aligned_edge=DOWN + LEFT).shift(
                GAP.tight * UP + GAP.small * RIGHT)
            # ... and right of where every curve still runs through it (the curves start at its height)
            def crossed() -> bool:
                (l, b, _), (r, t, _) = start.get_corner(DOWN + LEFT), start.get_corner(UP + RIGHT)
                return any(bool(np.any((c.points[:, 0] > l - GAP.hair) & (c.points[:, 0] < r + GAP.hair)
                                       & (c.points[:, 1] > b - GAP.hair) & (c.points[:, 1] < t + GAP.hair)))
                           for c in self.curves)
            for _ in range(40):
                if not crossed() or start.get_right()[0] > p.axes[0].get_center()[0]:
                    break
                start.shift(GAP.tight * RIGHT)
            # pair 0's point marked on the curves' start, the words led to it (review round 4b: 80 px apart)
            self.start_dot = Dot(p.to_point(0, wavelengths[0][0]), radius=0.06, color=FG)
            self.start_leader = Line(self.start_dot.get_center(), start.get_left() + GAP.hair * LEFT,
                                     stroke_color=FG, stroke_width=STROKE / 2)
            self.start_mark = VGroup(self.start_dot, self.start_leader)
            top = p.axes[1].get_top()[1]
            grid_ys = [g.get_start()[1] for g in p.grid if abs(g.get_start()[1] - g.get_end()[1]) < 1e-9]
            # every band's words broken at the same places: the narrowest band's (review round 4b: "18 of 64: / no
            # full turn / in training" at beat 06 but "29 of 64: no full turn / in training" at beat 08)
            narrowest = min(x1 - p.to_point(max(n_pairs - s_ - 0.5, 0), 1)[0] for s_ in slow) - 2 * GAP.small
            self.train_lines, self.bands, self.outlines = [], [], []
            for k, L in enumerate(Ls):
                line = role(p.hline(L, color=SEEN, dashed=True, stroke_width=STROKE * 5 / 6), "seen")
                # L on its line, at the left end, where the curves are still far below it: over the line, or under
                # it where a grid line would strike through the words (review round 4b: 10⁴ through "L = 4096")
                for side in (UP, DOWN):
                    self.L_labels[k].next_to(p.to_point(0, L), side, buff=GAP.tight).align_to(p.axes[1], LEFT).shift(
                        GAP.small * RIGHT)
                    if not any(_struck(self.L_labels[k], y) for y in grid_ys) and not any(
                            _crosses(self.L_labels[k], c) for c in self.curves):
                        break
                else:  # over its line, the grid line knocked out behind the words (the page's colour under them)
                    lab = self.L_labels[k]
                    lab.next_to(p.to_point(0, L), UP, buff=GAP.tight).align_to(p.axes[1], LEFT).shift(
                        GAP.small * RIGHT)
                    if not hasattr(lab, "knockout"):
                        lab.knockout = background(Rectangle(width=lab.width + GAP.small, height=lab.height + GAP.hair,
                                                            stroke_width=0, fill_color=BG, fill_opacity=1.0))
                        lab.add_to_back(lab.knockout)
                    lab.knockout.move_to(VGroup(*[m for m in lab if m is not lab.knockout]))
                first_slow = n_pairs - slow[k]
                xa = p.to_point(max(first_slow - 0.5, 0), 1)[0]
                band = background(bar(xa, x1, (line.get_y() + top) / 2, top - line.get_y(), UNSEEN, 0.0))
                band._role = "unseen"
                # as few lines as the band's width allows, at the words' size
                lab = self.band_labels[k] = _packed(band_texts[k], narrowest)
                # in the band's top left corner, from its left edge, where the curves are lowest, inside its edges
                lab.move_to(np.array([xa + GAP.small, top - GAP.small, 0]), aligned_edge=UP + LEFT)
                if lab.get_right()[0] > x1 - GAP.small:  # wider than the band: shrunk to it, never half outside it
                    lab.scale((x1 - xa - 2 * GAP.small) / lab.width)
                    lab.move_to(np.array([xa + GAP.small, top - GAP.small, 0]), aligned_edge=UP + LEFT)
                outline = role(Rectangle(width=x1 - xa, height=top - line.get_y(), stroke_color=HIGHLIGHT,
                                         stroke_width=STROKE).move_to(band), "highlight")
                self.train_lines.append(line)
                self.bands.append(band)
                self.outlines.append(outline)
            if not any(_crosses(line, self.curves[k]) for k in range(len(Ls)) for line in self.band_labels[k]):
                break
        # model 0's (LLaMA-2's), as the tests and the first beats use them
        self.train_line, self.band, self.outline = self.train_lines[0], self.bands[0], self.outlines[-1]
        self.L_label, self.band_label = self.L_labels[0], self.band_labels[0]
        self.axes_group = VGroup(p.axes, p.grid, p.x_tick_labels, p.y_tick_labels, self.x_label, self.title)
        self.add(self.axes_group)
