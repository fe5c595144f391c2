"""Each kind of panel drawn on its axes: heatmaps, plots, bars, text (with chips and formulas), arrows."""


from __future__ import annotations

import numpy as np

from scenes.kit.theme import (
    fmt_value,
)
from scenes.stills.spec import (
    BarsPanel,
    HeatmapPanel,
    Note,
    PanelArrow,
    PlotPanel,
    Rule,
    TextPanel,
)
from scenes.stills.text import MONO_FAMILY, sci, text_width, wrap

from .themes import DIVERGING, Theme


def _inches(sub) -> tuple[float, float]:
    root = sub.get_figure(root=True)
    W, H = root.get_size_inches()
    bb = sub.bbox_relative if hasattr(sub, "bbox_relative") else None
    if bb is None:
        return W, H
    return W * bb.width, H * bb.height


def _ticks_color(labels, colors, th):
    if colors:
        for t, c in zip(labels, colors):
            t.set_color(th.color(c))


def _draw_heatmap(p: HeatmapPanel, ax, fig, th: Theme) -> None:
    from matplotlib.patches import Rectangle

    v = np.asarray(p.values, dtype=float)
    if v.ndim != 2:
        raise ValueError(f"a heatmap panel needs a 2-D array, got shape {v.shape}")
    if p.scale.name in DIVERGING and not np.isclose(p.scale.norm.vmin, -p.scale.norm.vmax):
        raise ValueError(f"diverging colormap {p.scale.name} must be centred at 0, got "
                         f"[{p.scale.norm.vmin}, {p.scale.norm.vmax}]")
    rows, cols = v.shape
    cmap = p.scale.cmap.with_extremes(bad=th.masked)
    # vector cells (a QuadMesh), crisp in PDF and SVG at any zoom; thin paper-coloured gaps between them
    gap = (1.2 if max(rows, cols) <= 16 else 0.5) if p.grid and max(rows, cols) <= 40 else 0.0
    im = ax.pcolormesh(np.arange(cols + 1) - 0.5, np.arange(rows + 1) - 0.5, np.ma.masked_invalid(v), cmap=cmap,
                       norm=p.scale.norm, edgecolors=th.bg if gap else "face", linewidth=gap, snap=True)
    im.set_gid("values")
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect(p.aspect)
    ax.grid(which="major", visible=False)
    for s in ax.spines.values():
        s.set_visible(False)
    step = max(1, p.tick_step)
    xs, ys = np.arange(0, cols, step), np.arange(0, rows, step)
    ax.set_xticks(xs, [p.xticks[i] for i in xs] if p.xticks is not None else [str(i) for i in xs])
    ax.set_yticks(ys, [p.yticks[i] for i in ys] if p.yticks is not None else [str(i) for i in ys])
    ax.tick_params(which="major", length=0, pad=3)
    if p.xtick_colors:
        _ticks_color(ax.get_xticklabels(), [p.xtick_colors[i] for i in xs], th)
    if p.ytick_colors:
        _ticks_color(ax.get_yticklabels(), [p.ytick_colors[i] for i in ys], th)
    ax.xaxis.set_ticks_position("top" if p.xticks is not None and p.xlabel == "" else "bottom")
    if p.annotate:
        size = 9.5 if max(rows, cols) <= 6 else 8
        for (i, j), x in np.ndenumerate(v):
            if np.isfinite(x):
                txt = ("0" if x == 0.0 else "1") if p.exact and x in (0.0, 1.0) else fmt_value(x, p.decimals)
                ax.text(j, i, txt, ha="center", va="center", fontsize=size,
                        color=p.scale.text_color(x).to_hex())
            else:
                ax.text(j, i, p.masked_text, ha="center", va="center", fontsize=size, color=th.bad)
    for b in p.boxes:
        r0, r1 = b.rows
        c0, c1 = b.cols
        ax.add_patch(Rectangle((c0 - 0.5, r0 - 0.5), c1 - c0 + 1, r1 - r0 + 1, fill=False, edgecolor=th.color(b.color),
                               linewidth=b.width, clip_on=False, zorder=5))
        if b.label:
            ax.annotate(b.label, (c1 + 0.5, (r0 + r1) / 2), xytext=(6, 0), textcoords="offset points",
                        ha="left", va="center", fontsize=9.5, color=th.color(b.color), annotation_clip=False)
    ax.set_xlabel(p.xlabel)
    ax.set_ylabel(p.ylabel)
    if p.title:
        ax.set_title(p.title, loc="center", color=th.color(p.title_color))
    if p.note:
        top_ticks = p.xticks is not None and p.xlabel == ""
        ax.annotate(p.note, (0.5, 0), xycoords="axes fraction", xytext=(0, -4 if top_ticks else (-32 if p.xlabel else -18)),
                    textcoords="offset points", ha="center", va="top", fontsize=9.5, color=th.color(p.note_color),
                    annotation_clip=False).set_in_layout(True)
    if p.colorbar is not None:
        cb = fig.colorbar(im, ax=ax, fraction=0.05, pad=0.03, shrink=0.9, aspect=18)
        if cb.solids is not None:  # matplotlib rasterizes bars of many colours; keep print vector
            cb.solids.set_rasterized(False)
        cb.outline.set_visible(False)
        cb.ax.tick_params(length=2, colors=th.dim, labelsize=9)
        for t in cb.ax.get_yticklabels():
            t.set_color(th.fg)
        if p.cbar_ticks is not None:
            cb.set_ticks(list(p.cbar_ticks), labels=list(p.cbar_ticklabels) if p.cbar_ticklabels else None)
        if p.colorbar:
            cb.set_label(p.colorbar, color=th.dim, fontsize=9.5)


def _draw_plot(p: PlotPanel, ax, th: Theme) -> None:
    cycle = [th.blue, th.accent, th.purple, th.good, th.bad]
    k = 0
    for s in p.series:
        y = np.asarray(s.y, dtype=float)
        x = np.arange(y.size) if s.x is None else np.asarray(s.x, dtype=float)
        if s.color:
            col = th.color(s.color)
        else:
            col, k = cycle[k % len(cycle)], k + 1
        lab = s.label or None
        if s.kind == "line":
            ax.plot(x, y, color=col, linewidth=s.width, linestyle=s.style, label=lab, alpha=s.alpha)
        elif s.kind == "step":
            ax.step(x, y, where="post", color=col, linewidth=s.width, linestyle=s.style, label=lab, alpha=s.alpha)
        elif s.kind == "dots":
            if s.hollow:
                ax.scatter(x, y, s=s.width ** 2 * 4, marker=s.marker, facecolors="none", edgecolors=col, label=lab,
                           alpha=s.alpha, linewidths=1.3, zorder=3, clip_on=False)
            else:
                ax.scatter(x, y, s=s.width ** 2 * 4, marker=s.marker, color=col, label=lab, alpha=s.alpha, linewidths=0,
                           zorder=3)
        elif s.kind == "bars":
            ax.bar(x, y, width=s.width if s.width < 1.01 else 0.8, color=col, label=lab, alpha=s.alpha)
        else:
            raise ValueError(f"unknown series kind {s.kind!r}")
    if p.x_log:
        ax.set_xscale("log")
    if p.y_log:
        ax.set_yscale("log")
    if p.xlim:
        ax.set_xlim(*p.xlim)
    if p.ylim:
        ax.set_ylim(*p.ylim)
    for r in p.hlines:
        ax.axhline(r.value, linestyle=r.style, linewidth=1.3, color=th.color(r.color), zorder=2)
        _rule_label(ax, r, th)
    for r in p.vlines:
        ax.axvline(r.value, linestyle=r.style, linewidth=1.3, color=th.color(r.color), zorder=2)
        if r.label:
            ax.annotate(r.label, (r.value, 1), xycoords=("data", "axes fraction"), xytext=(4, -4),
                        textcoords="offset points", ha="left", va="top", fontsize=9.5, color=th.color(r.color))
    for sp in p.spans:
        ax.axvspan(sp.lo, sp.hi, color=th.color(sp.color), alpha=sp.alpha, linewidth=0, zorder=0)
        if sp.label and sp.label_y is not None:
            ax.annotate(sp.label, (sp.lo, sp.label_y), xycoords=("data", "axes fraction"), xytext=(5, 0),
                        textcoords="offset points", ha="left", va="center", fontsize=9.5, color=th.color(sp.color))
        elif sp.label:
            ax.annotate(sp.label, (sp.lo, 1), xycoords=("data", "axes fraction"), xytext=(5, -16),
                        textcoords="offset points", ha="left", va="top", fontsize=9.5, color=th.color(sp.color))
    if p.box:
        right, top = "right" in p.box_loc, "upper" in p.box_loc
        ax.text(0.98 if right else 0.02, 0.96 if top else 0.04, "\n".join(p.box), transform=ax.transAxes,
                ha="right" if right else "left", va="top" if top else "bottom", fontsize=9.5,
                color=th.color(p.box_color), linespacing=1.5)
    if not p.x_labels:
        ax.tick_params(axis="x", which="both", labelbottom=False)
    for n in p.notes:
        _note(ax, n, th)
    if p.xticks is not None:
        ax.set_xticks(list(p.xticks), labels=list(p.xticklabels) if p.xticklabels else None)
        ax.minorticks_off() if not p.x_log else None
    if p.yticks is not None:
        ax.set_yticks(list(p.yticks), labels=list(p.yticklabels) if p.yticklabels else None)
    ax.set_xlabel(p.xlabel)
    ax.set_ylabel(p.ylabel)
    if p.title:
        ax.set_title(p.title, loc="left", pad=22 if p.legend == "above" else 6)
    if p.grid:
        ax.grid(True, which="major", color=th.faint, linewidth=0.6)
    else:
        ax.grid(False)
    ax.set_axisbelow(True)
    if p.legend and any(s.label for s in p.series):
        _legend(ax, p.legend, th, sum(1 for s in p.series if s.label))


def _rule_label(ax, r: Rule, th: Theme) -> None:
    if r.label:
        left = r.label_at == "left"
        ax.annotate(r.label, (0 if left else 1, r.value), xycoords=("axes fraction", "data"), xytext=(2 if left else -2, 3),
                    textcoords="offset points", ha="left" if left else "right", va="bottom", fontsize=9.5,
                    color=th.color(r.color))


def _legend(ax, where: str, th: Theme, n: int) -> None:
    """A legend at a matplotlib location, or ``"above"``: one row over the axes, outside them."""
    if where == "above":
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=n, labelcolor=th.fg, borderaxespad=0.3,
                  handlelength=1.4, columnspacing=1.2)
    else:
        ax.legend(loc=where, labelcolor=th.fg)


def _note(ax, n: Note, th: Theme) -> None:
    col = th.color(n.color)
    ax.annotate(n.text, n.xy, xytext=n.xytext, textcoords="offset points", fontsize=n.size, color=col, ha=n.ha,
                va="center", annotation_clip=False,
                arrowprops={"arrowstyle": "-|>", "color": col, "linewidth": 1.0, "shrinkA": 2, "shrinkB": 3}
                if n.arrow else None)


def _draw_bars(p: BarsPanel, ax, th: Theme) -> None:
    cycle = [th.blue, th.accent, th.purple, th.good, th.bad]
    n, g = len(p.categories), len(p.groups)
    width = 0.8 / g
    x = np.arange(n)
    floor = None
    if p.y_log:
        ax.set_yscale("log")
        pos = np.concatenate([np.asarray(gr.values, float)[np.asarray(gr.values, float) > 0] for gr in p.groups] + [[]])
        floor = p.ylim[0] if p.ylim else (10.0 ** np.floor(np.log10(pos.min())) / 10 if pos.size else 1e-17)
    any_zero = False
    for k, gr in enumerate(p.groups):
        vals = np.asarray(gr.values, dtype=float)
        col = th.color(gr.color) if gr.color else cycle[k % len(cycle)]
        xs = x - 0.4 + width * (k + 0.5)
        shown = np.where(vals > 0, vals, np.nan) if p.y_log else vals
        ax.bar(xs, shown, width=width * 0.92, color=col, label=gr.label, bottom=floor if p.y_log else None)
        if p.y_log and gr.zero_marks:
            zeros = vals == 0
            if zeros.any():
                any_zero = True
                ax.scatter(xs[zeros], np.full(zeros.sum(), floor * 1.6), marker="D", s=34, facecolors="none",
                           edgecolors=col, linewidths=1.5, zorder=4, clip_on=False)
        if gr.value_labels:
            for xi, v in zip(xs, vals):
                ax.annotate(sci(v), (xi, v if (v > 0 or not p.y_log) else floor * 1.6), xytext=(0, 4),
                            textcoords="offset points", ha="center", va="bottom", fontsize=8.5, color=col)
    if any_zero:  # the legend's key for the floor marks
        ax.scatter([], [], marker="D", s=34, facecolors="none", edgecolors=th.fg, linewidths=1.5, label="exactly 0")
    if p.ylim:
        ax.set_ylim(*p.ylim)
    elif p.y_log and floor is not None:
        ax.set_ylim(bottom=floor)
    ax.set_xticks(x, list(p.categories))
    if p.category_colors:
        _ticks_color(ax.get_xticklabels(), p.category_colors, th)
    ax.tick_params(axis="x", length=0)
    for r in p.hlines:
        ax.axhline(r.value, linestyle=r.style, linewidth=1.3, color=th.color(r.color))
        _rule_label(ax, r, th)
    for nt in p.notes:
        _note(ax, nt, th)
    for sp in p.spans:
        ax.axvspan(sp.lo, sp.hi, color=th.color(sp.color), alpha=sp.alpha, linewidth=0, zorder=0)
        if sp.label:
            ax.annotate(sp.label, ((sp.lo + sp.hi) / 2, 1), xycoords=("data", "axes fraction"), xytext=(0, -3),
                        textcoords="offset points", ha="center", va="top", fontsize=9, color=th.color(sp.color))
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_xlabel(p.xlabel)
    ax.set_ylabel(p.ylabel)
    if p.title:
        ax.set_title(p.title, loc="left", pad=22 if p.legend == "above" else 6)
    ax.grid(True, axis="y", which="major", color=th.faint, linewidth=0.6)
    ax.set_axisbelow(True)
    if p.legend and (len(p.groups) > 1 or any_zero):
        _legend(ax, p.legend, th, len(p.groups) + any_zero)


def _prepare_text(ax) -> None:
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)


def _draw_text(p: TextPanel, ax, th: Theme) -> None:
    """Wrap and fit ``p``'s lines into ``ax`` (its size is final: the layout has settled)."""
    from matplotlib.patches import FancyBboxPatch

    fig = ax.get_figure(root=True)
    bb = ax.get_window_extent()
    W = bb.width * 72 / fig.dpi
    H = bb.height * 72 / fig.dpi
    pad = 9.0 if p.frame else 0.0
    x0 = pad
    if p.frame:
        col = th.color(p.frame)
        ax.add_patch(FancyBboxPatch((0.004, 0.004), 0.992, 0.992, boxstyle="round,pad=0,rounding_size=0.04",
                                    transform=ax.transAxes, facecolor=col, alpha=th.wash, edgecolor="none",
                                    mutation_aspect=W / H, clip_on=False))
        ax.add_patch(FancyBboxPatch((0.004, 0.004), 0.992, 0.992, boxstyle="round,pad=0,rounding_size=0.04",
                                    transform=ax.transAxes, facecolor="none", edgecolor=col, linewidth=1.6,
                                    mutation_aspect=W / H, clip_on=False))
    y_floor = pad
    box = None
    if p.picture is not None:
        if p.picture_at == "bottom":  # under the text, centred in the room the text leaves
            y_floor = p.picture_width * H + pad
        else:
            pw = p.picture_width * W
            side = min(pw - 2 * pad, H - 2 * pad)
            box = [(pad + (pw - 2 * pad - side) / 2) / W, (H - side) / 2 / H, side / W, side / H]
            x0 = pw + 2
    avail_w, avail_h = W - x0 - pad, H - pad - y_floor
    for shrink in (1.0, 0.94, 0.88, 0.82, 0.76, 0.7, 0.64, 0.58, 0.52):
        laid = _lay_out(p.lines, avail_w, shrink)
        height = sum(h for _, h, _ in laid)
        if height <= avail_h:
            break
    top = H - pad if p.valign == "top" else (H - pad + y_floor + height) / 2
    if p.picture is not None and box is None:
        room = top - height - 2 * pad
        side = min(room, 1.6 * p.picture_width * H, W - 2 * pad)
        box = [(W - side) / 2 / W, (pad + (room - side) / 2) / H, side / W, side / H]
    if box is not None:
        inset = ax.inset_axes(box)
        inset.set_axis_off()
        inset.set_xlim(-0.5, 0.5)
        inset.set_ylim(-0.5, 0.5)
        inset.set_aspect("equal")
        p.picture(inset, th, th.color(p.frame or "fg"))
    y = top
    for ln, h, rows in laid:
        size = ln.size * shrink
        y -= ln.space_before * shrink
        col = th.color(ln.color)
        for r, (text, indent) in enumerate(rows):
            base = y - size * 1.0
            xx = x0 + indent
            if ln.align == "center":
                xx = x0 + (avail_w - text_width(text, size, ln.weight)) / 2
            if r == 0 and ln.chips and not ln.chips_after:
                _draw_chips(ax, ln.chips, x0, base, size, th, W, H)
            if r == len(rows) - 1 and ln.chips and ln.chips_after:
                _draw_chips(ax, ln.chips, xx + text_width(text, size, ln.weight) + 5, base, size, th, W, H)
            ax.text(xx / W, base / H, text, transform=ax.transAxes, ha="left", va="baseline", fontsize=size,
                    weight=ln.weight, color=col, in_layout=False, family=MONO_FAMILY if ln.mono else None,
                    parse_math=not ln.mono)
            y -= size * 1.32


def _chip_w(size) -> float:
    return text_width("00", size * 0.9, "bold") + 8


def _chips_width(chips, size) -> float:
    return len(chips) * (_chip_w(size) + 5) + (3 if chips else 0)


def _draw_chips(ax, chips, x, base, size, th: Theme, W, H) -> None:
    from matplotlib.patches import FancyBboxPatch

    for n in chips:
        txt = f"{n:02d}"
        tw = _chip_w(size) - 8
        col = th.color(f"clip:{n}")
        h = size * 1.05
        for fc, ec, a in ((col, "none", th.wash * 2.2), ("none", col, 1.0)):
            ax.add_patch(FancyBboxPatch(((x) / W, (base - size * 0.28) / H), (tw + 8) / W, h / H,
                                        boxstyle="round,pad=0,rounding_size=0.006", transform=ax.transAxes,
                                        facecolor=fc, edgecolor=ec, alpha=a, linewidth=1.2, clip_on=False,
                                        mutation_aspect=W / H))
        ax.text((x + 4 + tw / 2) / W, base / H, txt, transform=ax.transAxes, ha="center", va="baseline", fontsize=size * 0.9,
                weight="bold", color=col, in_layout=False)
        x += tw + 8 + 5


def _lay_out(lines, width: float, shrink: float):
    out = []
    for ln in lines:
        size = ln.size * shrink
        indent = 0.0 if ln.chips_after else _chips_width(ln.chips, size)
        if ln.mono:  # code is never wrapped: it shrinks with the rest until it fits
            rows = [ln.text]
            if text_width(ln.text, size, ln.weight, MONO_FAMILY) > width:
                return [(ln, float("inf"), [(ln.text, 0.0)]) for ln in lines]
        else:
            rows = wrap(ln.text, width, size, ln.weight, first_indent=indent) if ln.text else [""]
        placed = [(r, indent if k == 0 else (indent if ln.chips else 0.0)) for k, r in enumerate(rows)]
        out.append((ln, ln.space_before * shrink + size * 1.32 * len(rows), placed))
    return out


def _draw_arrow(a: PanelArrow, axes, fig, th: Theme) -> None:
    from matplotlib.patches import ConnectionPatch

    (ka, pa), (kb, pb) = a.src, a.dst
    col = th.color(a.color)
    con = ConnectionPatch(xyA=pa, coordsA=a.coords, axesA=axes[ka], xyB=pb, coordsB=a.coords, axesB=axes[kb],
                          arrowstyle="-|>", color=col, linewidth=1.6, mutation_scale=14,
                          connectionstyle=f"arc3,rad={a.rad}", shrinkA=2, shrinkB=2)
    con.set_in_layout(False)
    fig.add_artist(con)
    if a.text:
        ta = axes[ka].transAxes if a.coords == "axes fraction" else axes[ka].transData
        tb = axes[kb].transAxes if a.coords == "axes fraction" else axes[kb].transData
        p0, p1 = ta.transform(pa), tb.transform(pb)
        mid = fig.transSubfigure.inverted().transform((p0 + p1) / 2) if hasattr(fig, "transSubfigure") else None
        fig.text(mid[0], mid[1], a.text, ha="center", va="bottom", fontsize=10, color=col,
                 transform=fig.transSubfigure, in_layout=False)

