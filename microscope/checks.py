"""The notebook's properties, checked on a submission's functions against mathcore's reference.

Every figure is measured here, in the parent, from the arrays the submission's functions returned in
their sandbox; the sandbox only runs the student's code.  The checks, in order (keys in brackets):

* ``attention``: its attention computes ``softmax(QKᵀ/√dₖ)V`` (and ``self_attention`` its projections
  first): the largest difference from mathcore's, against ``10⁻¹⁰``; a missing scale or a softmax over
  the wrong axis is named when the numbers match that mistake exactly.
* ``permutation_matrix``: ``P·X = X[π]`` exactly, for the lecture's π and a cyclic shift.
* ``equivariance``: ``max ‖Attn(PX) − P·Attn(X)‖_F`` over the lecture's ``n_trials`` (≥ 100) random P
  (mathcore's :func:`~mathcore.equivariance_defects`, on the student's outputs), against ``10⁻¹⁰``.
* ``causal``: its causal attention puts exactly 0 above the diagonal and every row sums to 1 (within
  ``10⁻¹²``); a ``causal_mask`` it defines must be bool with True = may attend.
* ``prefix``: ``max |Y_full[:t] − Y(X[:t])|`` over every ``t`` at rounding level (``10⁻¹⁰``);
  bitwise (exactly 0) or not is said beside the verdict, not failed.
* ``check_equivariance_max_defect`` and ``prefix_invariance_max_defect``: handed a correct and a broken
  attention (callables answered by mathcore in this process), each must return what the reference
  measures *on the same inputs it asked for* (``10⁻⁹`` relative): a pass at rounding level on the
  correct one, the broken one caught.
* ``my_sinusoidal_position`` and ``rope_angle_grid``: equal to mathcore's at the clips' sizes and a
  longer table, within ``10⁻⁹``, with the largest difference and where.

Each gives a :class:`Verdict`: pass, fail, error (the student's code raised, hung, ran out of a limit),
missing (not defined) or skipped (nothing to check it with); the arrays behind it are kept in
``Verdict.arrays`` for the clips that draw a student's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import mathcore as mc
from mathcore.causal import above_diagonal_max, row_sums
from mathcore.equivariance import THRESHOLD, default_swap
from mathcore.permutation import swap_permutation

from .numbers import eq, fmt, power
from .run import Call, Outcome, Proxy, StudentCode, Value
from .signatures import CAUSAL_KEYWORDS, MASK_KEYWORDS, Detected

TOL = THRESHOLD  # 1e-10: the notebook's pass line, for every comparison of computed outputs
ROW_SUM_TOL = 1e-12  # rows of weights sum to 1 within rounding
TABLE_TOL = 1e-9  # position tables: formulas written differently agree to ~1e-14 at these sizes
AGREE = 1e-9  # a student's measurement equals the reference's on the same inputs (relative)
PASS, FAIL, ERROR, MISSING, SKIPPED = "pass", "fail", "error", "missing", "skipped"


@dataclass(frozen=True)
class CheckInputs:
    """What the checks feed the student's functions: the lecture's ``T``, ``d``, ``seed``, π and number
    of random permutations, the RoPE/sinusoidal base, and the table sizes ``(T, d, base)`` at which the
    positional functions are compared (the first of each is what clips 08 and 10 draw)."""

    T: int = 6
    d: int = 4
    seed: int = 7
    perm: tuple = (2, 0, 4, 1, 5, 3)
    n_trials: int = 100
    base: float = 10000.0
    sinusoidal_sizes: tuple = ((12, 8, 10000.0), (64, 16, 10000.0))
    rope_sizes: tuple = ((12, 16, 10000.0), (64, 8, 500000.0))
    # clip 07's two sentences (``clips render --student``: the student's attention on each, with and without
    # positions)
    sentences: tuple = ("the cat ate the mouse", "the mouse ate the cat")

    @classmethod
    def from_config(cls, cfg) -> "CheckInputs":
        """The lecture config's numbers (``mathcore.load_config()``): its X, π and trials, and the
        tables at clip 08's width 8 and clip 10's width 16 over ``T_heatmap`` positions."""
        return cls(T=cfg.T, d=cfg.d, seed=cfg.seed, perm=tuple(cfg.perm), n_trials=cfg.n_trials,
                   base=float(cfg.rope_base),
                   sinusoidal_sizes=((cfg.T_heatmap, 8, float(cfg.rope_base)), (64, 16, 10000.0)),
                   rope_sizes=((cfg.T_heatmap, 16, float(cfg.rope_base)), (64, 8, 500000.0)),
                   sentences=(cfg.sentence_a, cfg.sentence_b))

    def sentence_inputs(self) -> dict:
        """Clip 07's inputs: each sentence's rows (``X_a``, ``X_b``) and the same with sinusoidal positions added
        (``X_a_pos``, ``X_b_pos``), as the clip builds them."""
        sp = mc.sentence_pair(self.sentences[0], self.sentences[1], self.d, self.seed)
        pe = mc.my_sinusoidal_position(len(sp.tokens_a), self.d, self.base)
        return {"X_a": sp.X_a, "X_b": sp.X_b, "X_a_pos": sp.X_a + pe, "X_b_pos": sp.X_b + pe}

    def lecture(self) -> mc.LectureInputs:
        return mc.lecture_inputs(self.T, self.d, self.seed)


@dataclass
class Verdict:
    """One property: ``status`` (pass, fail, error, missing, skipped), ``figure`` the measured figure as
    the report prints it (``value`` as a number), ``detail`` one line of why, ``note`` one line beside a
    pass (``bitwise``), ``arrays`` what the figure was measured on."""

    key: str
    title: str
    status: str
    figure: str = ""
    value: float | None = None
    detail: str = ""
    note: str = ""
    arrays: dict = field(default_factory=dict, repr=False)

    def as_dict(self) -> dict:
        return {"key": self.key, "title": self.title, "status": self.status, "figure": self.figure,
                "value": self.value, "detail": self.detail, "note": self.note}


TITLES = {
    "attention": "attention computes softmax(QKᵀ/√dₖ)V",
    "permutation_matrix": "permutation_matrix builds P with P·X = X[π]",
    "equivariance": "attention is permutation-equivariant",
    "causal": "causal attention: 0 above the diagonal, rows sum to 1",
    "prefix": "causal attention is prefix-invariant",
    "check_equivariance_max_defect": "check_equivariance_max_defect measures as the reference",
    "prefix_invariance_max_defect": "prefix_invariance_max_defect measures as the reference",
    "my_sinusoidal_position": "my_sinusoidal_position equals the Vaswani table",
    "rope_angle_grid": "rope_angle_grid equals m·base^(−2i/d)",
}


# ---------------------------------------------------------------------------------------------- helpers
def numbers(v: Value, shape: tuple | None, what: str = "") -> tuple[np.ndarray | None, str | None]:
    """A returned value as a finite float array of ``shape``, or the one-line reason it is not."""
    want = f"an array of shape {shape}" if shape else "an array"
    if v.kind == "ndarray" and v.array is None:
        return None, f"returns {what}{v.describe()}, expected {want}"
    if v.kind != "ndarray":
        if v.kind == "list" and v.array is not None:
            return None, f"returns {what}a list, expected a NumPy array (np.ndarray) of shape {shape or v.array.shape}"
        return None, f"returns {what}{v.describe()}, expected {want}"
    a = v.array
    if shape is not None and tuple(a.shape) != tuple(shape):
        return None, f"returns {what}shape {tuple(a.shape)}, expected {tuple(shape)}"
    a = a.astype(np.float64)
    bad = ~np.isfinite(a)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        bad_value = "NaN" if np.isnan(a[idx]) else "an infinity"
        return None, f"returns {what}{bad_value} at {idx if len(idx) > 1 else idx[0]}"
    return a, None


def scalar(v: Value) -> tuple[float | None, str | None]:
    """A returned measurement as a float, or why it is not one."""
    if v.kind in ("bool", "bool_"):
        return None, "returns a bool, expected the defect as a number"
    if v.array is not None and v.kind not in ("list", "tuple") and v.array.size == 1:
        x = float(v.array.reshape(-1)[0])
        return (x, None) if np.isfinite(x) else (None, f"returns {fmt(x)}")
    return None, f"returns {v.describe()}, expected a number"


def split_output(v: Value) -> tuple[Value, Value | None]:
    """``Y`` or ``(Y, A)``: the output and the weights if it returned both."""
    if v.kind == "tuple" and len(v.items) >= 2:
        return v.items[0], v.items[1]
    if v.kind == "list" and len(v.items) == 2 and all(i.kind == "ndarray" for i in v.items) and v.array is None:
        return v.items[0], v.items[1]
    return v, None


def mutation(o: Outcome, names: list[str]) -> str | None:
    """``changes its input Q in place (by up to 0.5)`` for the first input any run changed."""
    for runs in o.mutated:
        for m in runs:
            i = m.get("arg")
            name = names[i] if isinstance(i, int) and i < len(names) else f"argument {i}"
            by = f" (by up to {fmt(m['change'])})" if isinstance(m.get("change"), (int, float)) else ""
            return f"changes its input {name} in place{by}"
    return None


def largest(diff: np.ndarray, labels: tuple[str, str] = ("row", "column")) -> str:
    idx = np.unravel_index(int(np.argmax(diff)), diff.shape)
    if diff.ndim == 2:
        return f"{labels[0]} {idx[0]}, {labels[1]} {idx[1]}"
    return f"entry {idx}"


def row_perm(Z: np.ndarray, X: np.ndarray) -> np.ndarray | None:
    """The permutation p with ``Z == X[p]`` row for row (bitwise, but −0 and 0 alike: ``P @ X`` sums a row's
    −0 with the 0s of the other rows into 0), or None."""
    Z = np.asarray(Z, dtype=np.float64) + 0.0  # −0 + 0 = 0
    X = np.asarray(X, dtype=np.float64) + 0.0
    if Z.shape != X.shape:
        return None
    rows = {X[i].tobytes(): i for i in range(X.shape[0])}
    if len(rows) != X.shape[0]:
        return None
    p = [rows.get(Z[i].tobytes()) for i in range(Z.shape[0])]
    if None in p or len(set(p)) != len(p):
        return None
    return np.array(p)


def under(figure: str, value: float, exponent: int) -> str:
    """A passing figure with its pass line: ``… ≈ 2.2 × 10⁻¹⁶, under 10⁻¹⁰`` (an exact 0 needs none)."""
    return figure if value == 0 else f"{figure}, under {power(exponent)}"


def agree(x: float, ref: float) -> bool:
    return abs(x - ref) <= AGREE * max(1.0, abs(ref))


class Checker:
    """Runs every check on one submission (``code`` started and loaded, ``found`` its functions)."""

    def __init__(self, code: StudentCode, found: Detected, inputs: CheckInputs):
        self.code, self.found, self.inp = code, found, inputs
        li = inputs.lecture()
        self.X, self.Wq, self.Wk, self.Wv = li.X, li.Wq, li.Wk, li.Wv
        self.Q, self.K, self.V = (mc.matmul(self.X, W) for W in (self.Wq, self.Wk, self.Wv))  # rows exact under P
        self.T, self.d = self.X.shape
        self.servers = {"self": mc.attention_fn(self.Wq, self.Wk, self.Wv, causal=False),
                        "causal": mc.attention_fn(self.Wq, self.Wk, self.Wv, causal=True)}

    def all(self) -> list[Verdict]:
        return [self.attention(), self.permutation_matrix(), self.equivariance(), self.causal(), self.prefix(),
                self.check_equivariance(), self.check_prefix(), self.sinusoidal(), self.rope()]

    def verdict(self, key: str, status: str, **kw) -> Verdict:
        return Verdict(key, TITLES[key], status, **kw)

    def error(self, key: str, fn: str, o: Outcome) -> Verdict:
        return self.verdict(key, ERROR, detail=f"{fn} {o.message}")

    # ------------------------------------------------------------------ attention
    def attention(self) -> Verdict:
        att, sa = self.found.get("attention"), self.found.get("self_attention")
        if att is None and sa is None:
            return self.verdict("attention", MISSING, detail="defines neither attention(Q, K, V, mask=None) "
                                "nor self_attention(X, Wq, Wk, Wv)")
        worst, problems, arrays = 0.0, [], {}
        for f, args, names in ((att, [self.Q, self.K, self.V], ["Q", "K", "V"]),
                               (sa, [self.X, self.Wq, self.Wk, self.Wv], ["X", "Wq", "Wk", "Wv"])):
            if f is None:
                continue
            o = self.code.call(f.name, [args])
            if not o.ok:
                return self.error("attention", f.name, o)
            ref = mc.attention(self.Q, self.K, self.V)
            Yv, Av = split_output(o.values[0])
            Y, why = numbers(Yv, (self.T, self.d), "Y as " if Av is not None else "")
            if why:
                return self.verdict("attention", FAIL, detail=f"{f.name} {why}")
            diff = np.abs(Y - ref.output)
            what = f"{f.name}: max |Y − Y_ref|"
            if Av is not None:
                A, why = numbers(Av, (self.T, self.T), "A as ")
                if why:
                    return self.verdict("attention", FAIL, detail=f"{f.name} {why}")
                if np.max(np.abs(A - ref.weights)) > np.max(diff):
                    diff, what = np.abs(A - ref.weights), f"{f.name}: max |A − A_ref|"
            arrays[f"{f.name}.Y"] = Y
            m = float(np.max(diff))
            if m >= worst:
                worst, worst_what = m, what
            if m >= TOL:
                problems.append(f"{f.name} differs most at {largest(diff)}{self._diagnose(Y)}")
            mut = mutation(o, names)
            if mut:
                problems.append(f"{f.name} {mut}")
        figure = f"{worst_what} {eq(worst)}"
        if problems:
            return self.verdict("attention", FAIL, figure=figure, value=worst, detail="; ".join(problems),
                                arrays=arrays)
        checked = " and ".join(f.name for f in (att, sa) if f is not None)
        return self.verdict("attention", PASS, figure=under(figure, worst, -10), value=worst, arrays=arrays,
                            note=f"{checked} on the lecture's X")

    def _diagnose(self, Y: np.ndarray) -> str:
        """Name a classic mistake when the output equals what that mistake computes."""
        S = self.Q @ self.K.T
        scaled = S / np.sqrt(self.d)
        candidates = (
            (": it equals softmax(QKᵀ)V, the 1/√dₖ scale is missing", mc.softmax(S, axis=1) @ self.V),
            (": it equals a softmax over the columns (axis 0), not the rows", mc.softmax(scaled, axis=0) @ self.V),
        )
        for text, Y_bug in candidates:
            if np.max(np.abs(Y - Y_bug)) < TOL:
                return text
        return ""

    # ------------------------------------------------------------------ permutation matrix
    def permutation_matrix(self) -> Verdict:
        f = self.found.get("permutation_matrix")
        if f is None:
            return self.verdict("permutation_matrix", MISSING, detail="permutation_matrix(perm) is not defined")
        perms = [np.array(self.inp.perm), np.roll(np.arange(self.T), 1)]
        o = self.code.call(f.name, [[p.tolist()] for p in perms])
        if not o.ok:
            return self.error("permutation_matrix", f.name, o)
        worst, arrays = 0.0, {}
        for p, v in zip(perms, o.values):
            P, why = numbers(v, (self.T, self.T))
            if why:
                return self.verdict("permutation_matrix", FAIL, detail=f"{f.name}({p.tolist()}) {why}")
            PX = mc.matmul(P, self.X)  # one product by 1 per entry: exact for a one-hot P
            defect = float(np.max(np.abs(PX - self.X[p])))
            arrays.setdefault("P", P)
            arrays.setdefault("PX", PX)
            if defect > 0:
                figure = f"max |P·X − X[π]| {eq(defect)}"
                if np.array_equal(mc.matmul(P.T, self.X), self.X[p]):
                    why = (f"{f.name}({p.tolist()}) builds Pᵀ: its P·X is X[π⁻¹] "
                           f"(row 0 is row {int(np.argmax(P[0]))} of X, not row {int(p[0])})")
                else:
                    why = f"{f.name}({p.tolist()}): P·X differs from X[π] most at {largest(np.abs(PX - self.X[p]))}"
                return self.verdict("permutation_matrix", FAIL, figure=figure, value=defect, detail=why, arrays=arrays)
            worst = max(worst, float(np.max(np.abs(P @ P.T - np.eye(self.T)))))
        mut = mutation(o, ["perm"])
        note = "P Pᵀ = I" if worst == 0 else f"max |P Pᵀ − I| {eq(worst)}"
        if mut:
            return self.verdict("permutation_matrix", FAIL, figure="max |P·X − X[π]| = 0 (exact)", value=0.0,
                                detail=f"{f.name} {mut}", arrays=arrays)
        return self.verdict("permutation_matrix", PASS, figure="max |P·X − X[π]| = 0 (exact)", value=0.0,
                            note=f"{note}, for π = {list(self.inp.perm)} and a cyclic shift", arrays=arrays)

    # ------------------------------------------------------------------ equivariance
    def _attn_runs(self, rows_list: list[np.ndarray]) -> tuple[str, list, list[str]] | None:
        """The submission's attention as ``X -> Y``: (function, one run per input, argument names)."""
        sa, att = self.found.get("self_attention"), self.found.get("attention")
        if sa is not None:
            return sa.name, [[Z, self.Wq, self.Wk, self.Wv] for Z in rows_list], ["X", "Wq", "Wk", "Wv"]
        if att is not None:
            runs = [[mc.matmul(Z, self.Wq), mc.matmul(Z, self.Wk), mc.matmul(Z, self.Wv)] for Z in rows_list]
            return att.name, runs, ["Q", "K", "V"]
        return None

    def _outputs(self, key: str, fn: str, o: Outcome, inputs: list[np.ndarray], names: list[str]):
        """{input bytes: Y} for the runs of ``o``, or the Verdict that says why not."""
        if not o.ok:
            return self.error(key, fn, o)
        out = {}
        for Z, v in zip(inputs, o.values):
            Y, why = numbers(split_output(v)[0], (Z.shape[0], self.d))
            if why:
                tokens = f"{Z.shape[0]} token{'s' if Z.shape[0] > 1 else ''}"
                return self.verdict(key, FAIL, detail=f"{fn} {why} (on {tokens})")
            out[Z.tobytes()] = Y
        return out  # an input changed in place fails the attention's own check, not this property

    def equivariance(self) -> Verdict:
        n, seed = self.inp.n_trials, self.inp.seed
        perms = mc.random_permutations(self.T, n, seed)  # the ones mathcore's measurement draws below
        swap = swap_permutation(self.T, *default_swap(self.T)) if self.T >= 2 else np.arange(self.T)
        inputs = [self.X] + [self.X[p] for p in perms] + [self.X[swap]]  # and clip 06's swap (`clips render --student`)
        got = self._attn_runs(inputs)
        if got is None:
            return self.verdict("equivariance", MISSING, detail="no attention to check (attention or self_attention)")
        fn, runs, names = got
        out = self._outputs("equivariance", fn, self.code.call(fn, runs), inputs, names)
        if isinstance(out, Verdict):
            return out
        _, defects = mc.equivariance_defects(lambda Z: out[np.asarray(Z, dtype=np.float64).tobytes()], self.X, n, seed)
        m = float(np.max(defects))
        figure = f"max ‖Attn(PX) − P·Attn(X)‖_F over {n} random P {eq(m)}"
        arrays = {"perms": perms, "defects": defects, "Y": out[self.X.tobytes()], "Y_swap": out[self.X[swap].tobytes()],
                  "swap": swap}
        arrays.update(self._sentences())
        arrays.update(self._clip_perm())
        if m < TOL:
            return self.verdict("equivariance", PASS, figure=under(figure, m, -10), value=m, arrays=arrays)
        k = int(np.argmax(defects))
        return self.verdict("equivariance", FAIL, figure=figure, value=m, arrays=arrays,
                            detail=f"{int(np.sum(defects >= TOL))} of {n} permutations above {power(-10)}; "
                                   f"the worst is π = {perms[k].tolist()}")

    def _clip_perm(self) -> dict:
        """Clip 02 (``clips render --student``): the attention on X and on ``P X`` for the lecture's π (``perm``):
        its outputs (``Y_perm``) and, where it returned them on both, its weights (``A``, ``A_perm``); nothing where
        that run gives no outputs (a run of its own: it never changes the verdict)."""
        perm = np.asarray(self.inp.perm)
        if perm.shape != (self.T,) or not np.array_equal(np.sort(perm), np.arange(self.T)):
            return {}
        got = self._attn_runs([self.X, self.X[perm]])
        if got is None:
            return {}
        fn, runs, _ = got
        o = self.code.call(fn, runs)
        if not o.ok or len(o.values) < 2:
            return {}
        outs, weights = [], []
        for v in o.values[:2]:
            Yv, Av = split_output(v)
            Y, why = numbers(Yv, (self.T, self.d))
            if why:
                return {}
            outs.append(Y)
            A = None if Av is None else numbers(Av, (self.T, self.T))[0]
            weights.append(A)
        out = {"perm": perm, "Y_perm": outs[1]}
        if all(A is not None for A in weights):
            out.update(A=weights[0], A_perm=weights[1])
        return out

    # ------------------------------------------------------------------ causal attention
    def _causal_runs(self, t: int, identity_v: bool = False, order=None):
        """One run of the submission's causal attention on the first ``t`` tokens (V = I for the weights); with
        ``order``, on the rows of X in that order (``P X``: its Q, K and V are the rows of ours, exactly)."""
        o = np.arange(self.T) if order is None else np.asarray(order)
        src, X = self.found.causal_source, self.X[o][:t]
        Q, K, V = self.Q[o][:t], self.K[o][:t], (np.eye(t) if identity_v else self.V[o][:t])
        if src == "causal_attention":
            f = self.found.get("causal_attention")
            if f.qkv_form:
                return f.name, [Q, K, V], ["Q", "K", "V"]
            return (None if identity_v else (f.name, [X, self.Wq, self.Wk, self.Wv], ["X", "Wq", "Wk", "Wv"]))
        if src in ("attention+causal_mask", "attention+mask"):
            f = self.found.get("attention")
            if src == "attention+causal_mask":  # its own causal_mask(t), made in the sandbox
                mask = Call(self.found.get("causal_mask").name, (t,))
            else:
                mask = mc.causal_mask(t)
            if f.accepts(4):
                return f.name, [Q, K, V, mask], ["Q", "K", "V", "mask"]
            return f.name, ([Q, K, V], {f.keyword(MASK_KEYWORDS): mask}), ["Q", "K", "V"]
        if src == "self_attention":
            f = self.found.get("self_attention")
            if identity_v:
                return None
            return f.name, ([X, self.Wq, self.Wk, self.Wv], {f.keyword(CAUSAL_KEYWORDS): True}), ["X", "Wq", "Wk", "Wv"]
        return None

    def causal(self) -> Verdict:
        if not self.found.causal_source:
            return self.verdict("causal", MISSING, detail="no causal attention: define causal_attention, or an "
                                "attention(Q, K, V, mask) to call with the causal mask")
        T = self.T
        fn, run, names = self._causal_runs(T)
        runs = [run]
        ident = self._causal_runs(T, identity_v=True)
        if ident is not None:
            runs.append(ident[1])
        o = self.code.call(fn, runs)
        if not o.ok and not o.values:
            return self.error("causal", fn, o)
        Yv, Av = split_output(o.values[0])
        Y, why = numbers(Yv, (T, self.d))
        if why:
            return self.verdict("causal", FAIL, detail=f"{fn} {why}")
        how = "the weights it returns"
        if Av is None and len(o.values) > 1:  # Y = A·I: its weights, from its own output
            Av, how = split_output(o.values[1])[0], "its output with V = I (Y = A·I)"
        if Av is None:
            return self.verdict("causal", SKIPPED, detail=f"{fn} returns Y only, so its weights cannot be read; "
                                "the prefix check tests causality through its outputs")
        A, why = numbers(Av, (T, T), "weights of ")
        if why:
            return self.verdict("causal", FAIL, detail=f"{fn} {why}")
        above = above_diagonal_max(A)
        sums = row_sums(A)
        sum_defect = float(np.max(np.abs(sums - 1.0)))
        upper = np.triu(np.ones((T, T), dtype=bool), 1)
        arrays = {"A": A, "future": upper & (A != 0), "row_sums": sums}
        arrays.update(self._swapped(Y))
        figure = f"max weight above the diagonal {eq(above)}; max |row sum − 1| {eq(sum_defect)}"
        problems = []
        if above != 0:
            i, j = np.unravel_index(int(np.argmax(np.where(upper, np.abs(A), -1))), A.shape)
            leaked = int(np.count_nonzero(arrays["future"]))
            problems.append(f"{leaked} future weight(s) are not 0, the largest {fmt(A[i, j])} at row {i}, column {j}")
            if np.all(A[np.tril_indices(T, -1)] == 0):
                problems.append("and every past weight is 0: the mask lets a token see the future, not the past "
                                "(built with triu?)")
        if sum_defect > ROW_SUM_TOL:
            r = int(np.argmax(np.abs(sums - 1.0)))
            problems.append(f"row {r} sums to {fmt(sums[r])}")
        mask_problem = self._mask_convention()
        if mask_problem:
            problems.append(mask_problem)
        if problems:
            return self.verdict("causal", FAIL, figure=figure, value=max(above, sum_defect), detail="; ".join(problems),
                                arrays=arrays)
        return self.verdict("causal", PASS, figure=figure, value=max(above, sum_defect), note=f"read from {how}",
                            arrays=arrays)

    def _sentences(self) -> dict:
        """Clip 07 (``clips render --student``): the attention's outputs on each sentence, with and without positions
        (``Y_a``, ``Y_b``, ``Y_a_pos``, ``Y_b_pos``), or nothing where it gives none (a run of its own: what it does on
        other lengths never changes the verdict)."""
        sentences = self.inp.sentence_inputs()
        got = self._attn_runs(list(sentences.values()))
        if got is None:
            return {}
        fn, runs, _ = got
        o = self.code.call(fn, runs)
        if not o.ok:
            return {}
        out = {}
        for k, Z, v in zip(sentences, sentences.values(), o.values):
            Y, why = numbers(split_output(v)[0], (Z.shape[0], self.d))
            if why:
                return {}
            out["Y" + k[1:]] = Y
        return out

    def _swapped(self, Y: np.ndarray) -> dict:
        """Clip 06 (``clips render --student``): the causal attention's outputs ``Y`` on X and on the clip's swap
        ``P X`` (``swap``: the permutation), or nothing where that run gives no outputs to draw."""
        if self.T < 2:
            return {}
        p = swap_permutation(self.T, *default_swap(self.T))
        fn, run, _ = self._causal_runs(self.T, order=p)
        o = self.code.call(fn, [run])
        if not o.ok:
            return {}
        Ys, why = numbers(split_output(o.values[0])[0], (self.T, self.d))
        return {} if why else {"Y": Y, "Y_swap": Ys, "swap": p}

    def _mask_convention(self) -> str | None:
        f = self.found.get("causal_mask")
        if f is None:
            return None
        o = self.code.call(f.name, [[self.T]])
        if not o.ok:
            return f"{f.name}({self.T}) {o.message}"
        v = o.values[0]
        if v.kind != "ndarray" or v.array is None:
            return f"{f.name}({self.T}) returns {v.describe()}, expected a ({self.T}, {self.T}) bool array"
        m = v.array
        if m.dtype != np.bool_:
            return f"{f.name}({self.T}) returns dtype {m.dtype}, expected bool (True = may attend)"
        if m.shape != (self.T, self.T) or not np.array_equal(m, mc.causal_mask(self.T)):
            if m.shape == (self.T, self.T) and np.array_equal(m, ~mc.causal_mask(self.T)):
                return f"{f.name}({self.T}) is True above the diagonal: True must mean may attend"
            return f"{f.name}({self.T}) is not True exactly on and below the diagonal"
        return None

    def prefix(self) -> Verdict:
        if not self.found.causal_source:
            return self.verdict("prefix", MISSING, detail="no causal attention to check")
        runs, inputs = [], []
        for t in range(1, self.T + 1):
            fn, run, names = self._causal_runs(t)
            runs.append(run)
            inputs.append(self.X[:t])
        out = self._outputs("prefix", fn, self.code.call(fn, runs), inputs, names + ["mask"])
        if isinstance(out, Verdict):
            return out
        defects = mc.prefix_defects(lambda Z: out[np.asarray(Z, dtype=np.float64).tobytes()], self.X)
        m = float(np.max(defects))
        figure = f"max |Y_full[:t] − Y(X[:t])| over t = 1…{self.T} {eq(m)}"
        # every pass's outputs for clip 04 (``clips render --student``): passes[t − 1, :t] = Y(X[:t]), NaN below
        passes = np.full((self.T, self.T, self.d), np.nan)
        for t, Z in enumerate(inputs, 1):
            passes[t - 1, :t] = out[Z.tobytes()]
        arrays = {"defects": defects, "passes": passes}
        if m < TOL:
            note = ("bitwise (exactly equal)" if m == 0 else
                    "not bitwise: equal at rounding level (a BLAS matmul sums in another order)")
            return self.verdict("prefix", PASS, figure=under(figure, m, -10), value=m, note=note, arrays=arrays)
        first, worst = int(np.argmax(defects >= TOL)) + 1, int(np.argmax(defects)) + 1
        return self.verdict("prefix", FAIL, figure=figure, value=m, arrays=arrays,
                            detail=f"Y(X[:t]) differs from Y_full[:t] from t = {first} on (most at t = {worst}): "
                                   "later tokens reach back into earlier outputs")

    # ------------------------------------------------------------------ the student's own checks
    def _measure(self, key: str, role: str, extra: list, calls: int = 1):
        """Call the student's check once with each of our attentions; (function, {server: (value, calls)})
        or the Verdict that says why not.  ``calls``: how many times it should call the attention (its time
        limit is the sandbox's for each thousand calls: the lecture may ask for 10 000 trials)."""
        f = self.found.get(role)
        if f is None:
            return self.verdict(key, MISSING, detail=f"{role} is not defined")
        n_args = max(k for k in range(2, 2 + len(extra) + 1) if f.accepts(k))
        got = {}
        for server in ("self", "causal"):
            args = ([Proxy(server), self.X] + extra)[:n_args]
            timeout = self.code.limits.timeout * -(-calls // 1000) if calls > 1000 else None
            o = self.code.call(f.name, [args], servers=self.servers, timeout=timeout)
            if not o.ok:
                return self.error(key, f.name, o)
            x, why = scalar(o.values[0])
            if why:
                return self.verdict(key, FAIL, detail=f"{f.name} {why}")
            mut = mutation(o, ["attn", "X"])
            if mut:
                return self.verdict(key, FAIL, detail=f"{f.name} {mut}")
            got[server] = (x, o.calls)
        return f, got

    def check_equivariance(self) -> Verdict:
        key = "check_equivariance_max_defect"
        got = self._measure(key, key, [self.inp.n_trials, self.inp.seed], calls=self.inp.n_trials + 1)
        if isinstance(got, Verdict):
            return got
        f, got = got
        refs = {}
        for server, (_, calls) in got.items():
            Y0 = self.servers[server](self.X)
            seen = [(Y, p) for _, Z, Y in calls if (p := row_perm(Z, self.X)) is not None]
            defects = [float(np.linalg.norm(Y - Y0[p])) for Y, p in seen]
            no_p = [float(np.linalg.norm(Y - Y0)) for Y, p in seen]  # what a check without P would measure
            refs[server] = (max(defects) if defects else None, len(seen), max(no_p) if no_p else None)
        (ok_val, _), (bad_val, _) = got["self"], got["causal"]
        ok_ref, n_ok, ok_nop = refs["self"]
        bad_ref, n_bad, _ = refs["causal"]
        figure = (f"{fmt(bad_val)} on causal attention (not equivariant), the reference "
                  f"{fmt(bad_ref)} on the same {n_bad} inputs; {fmt(ok_val)} on self-attention")
        value = bad_val
        if bad_ref is None or ok_ref is None:
            return self.verdict(key, FAIL, figure=f"{fmt(bad_val)} on causal attention", value=value,
                                detail=f"{f.name} never calls the attention it is given on a permutation of X")
        problems = []
        if not ok_val < TOL:
            hint = " (it compares Attn(PX) with Attn(X), without P)" if ok_nop and agree(ok_val, ok_nop) else ""
            problems.append(f"reports {fmt(ok_val)} on self-attention, which is equivariant (the reference on "
                            f"the same inputs: {fmt(ok_ref)}){hint}")
        if not bad_val >= TOL:
            problems.append(f"misses a broken attention: {fmt(bad_val)} on causal attention, where the reference "
                            f"measures {fmt(bad_ref)}")
        elif not agree(bad_val, bad_ref):
            problems.append(f"reports {fmt(bad_val)} on causal attention, where the reference (the largest "
                            f"‖Attn(PX) − P·Attn(X)‖_F over the same {n_bad} inputs) measures {fmt(bad_ref)}")
        wanted = self.inp.n_trials if f.accepts(3) else 1
        if n_ok < wanted:
            problems.append(f"tries {n_ok} permutation(s) of X, asked for n_trials = {self.inp.n_trials}")
        if problems:
            return self.verdict(key, FAIL, figure=figure, value=value, detail="; ".join(problems))
        return self.verdict(key, PASS, figure=figure, value=value, note=f"it ran attn on {n_ok} permutations of X")

    def check_prefix(self) -> Verdict:
        key = "prefix_invariance_max_defect"
        got = self._measure(key, key, [])
        if isinstance(got, Verdict):
            return got
        f, got = got
        refs = {}
        for server, (_, calls) in got.items():
            Y_full = self.servers[server](self.X)
            ds = [float(np.max(np.abs(Y_full[: Z.shape[0]] - Y))) for _, Z, Y in calls
                  if Z.ndim == 2 and 0 < Z.shape[0] <= self.T and Z.shape[1] == self.d
                  and np.array_equal(Z, self.X[: Z.shape[0]])]
            refs[server] = (max(ds) if ds else None, len(calls))
        (ok_val, _), (bad_val, _) = got["causal"], got["self"]
        ok_ref, n_ok = refs["causal"]
        bad_ref, _ = refs["self"]
        figure = (f"{fmt(ok_val)} on causal attention (the reference: {fmt(ok_ref)}); {fmt(bad_val)} on "
                  f"self-attention, not prefix-invariant (the reference: {fmt(bad_ref)})")
        if ok_ref is None or bad_ref is None:
            never = "never calls the attention it is given" if not n_ok else "never runs it on a prefix of X"
            return self.verdict(key, FAIL, figure=f"{fmt(ok_val)} on causal attention", value=bad_val,
                                detail=f"{f.name} {never}")
        problems = []
        if not (ok_val < TOL and abs(ok_val - ok_ref) <= ROW_SUM_TOL):
            problems.append(f"reports {fmt(ok_val)} on causal attention, which is prefix-invariant (the reference "
                            f"on the same prefixes: {fmt(ok_ref)})")
        if not bad_val >= TOL:
            problems.append(f"misses a broken attention: {fmt(bad_val)} on self-attention, where the reference "
                            f"measures {fmt(bad_ref)}")
        elif not agree(bad_val, bad_ref):
            problems.append(f"reports {fmt(bad_val)} on self-attention, where the reference on the same prefixes "
                            f"measures {fmt(bad_ref)}")
        if problems:
            return self.verdict(key, FAIL, figure=figure, value=bad_val, detail="; ".join(problems))
        return self.verdict(key, PASS, figure=figure, value=bad_val)

    # ------------------------------------------------------------------ positions
    def _table(self, key: str, reference, sizes, shape, diagnose) -> Verdict:
        f = self.found.get(key)
        if f is None:
            return self.verdict(key, MISSING, detail=f"{key}(T, d, base) is not defined")
        takes_base = f.accepts(3)
        cases = [s for s in sizes if takes_base or s[2] == 10000.0]
        if not cases:
            cases = [(sizes[0][0], sizes[0][1], 10000.0)]
        runs = [[T, d, base] if takes_base else [T, d] for T, d, base in cases]
        o = self.code.call(f.name, runs)
        if not o.ok:
            return self.error(key, f.name, o)
        worst, where, arrays = -1.0, "", {}
        for (T, d, base), v in zip(cases, o.values):
            ref = reference(T, d, base)
            call = f"{f.name}({T}, {d}, {base:g})"
            got, why = numbers(v, shape(T, d))
            if why:
                return self.verdict(key, FAIL, detail=f"{call} {why}")
            diff = np.abs(got - ref)
            if not arrays:
                arrays = {"student": got, "reference": ref, "diff": diff}
            if float(np.max(diff)) > worst:
                worst = float(np.max(diff))
                i, j = np.unravel_index(int(np.argmax(diff)), diff.shape)
                col = "pair" if key == "rope_angle_grid" else "column"
                where = (f"{call}: largest difference at position {i}, {col} "
                         f"{j}: {fmt(got[i, j])} against {fmt(ref[i, j])}{diagnose(got, T, d, base)}")
        figure = f"max difference from the reference {eq(worst)}"
        if not takes_base:
            where = f"{where}; it takes no base, so only base 10 000 is checked"
        if worst >= TABLE_TOL:
            return self.verdict(key, FAIL, figure=figure, value=worst, detail=where, arrays=arrays)
        sizes_text = ", ".join(f"({T}, {d}, {base:g})" for T, d, base in cases)
        return self.verdict(key, PASS, figure=under(figure, worst, -9), value=worst, note=f"at {sizes_text}",
                            arrays=arrays)

    def sinusoidal(self) -> Verdict:
        def diagnose(got, T, d, base):
            ref = mc.my_sinusoidal_position(T, d, base)
            swapped = ref.copy()
            swapped[:, 0::2], swapped[:, 1::2] = ref[:, 1::2], ref[:, 0::2]
            return ": sine and cosine are swapped" if np.max(np.abs(got - swapped)) < TABLE_TOL else ""

        return self._table("my_sinusoidal_position", mc.my_sinusoidal_position, self.inp.sinusoidal_sizes,
                           lambda T, d: (T, d), diagnose)

    def rope(self) -> Verdict:
        def diagnose(got, T, d, base):
            bug = np.arange(T)[:, None] * base ** (-np.arange(d // 2)[None, :] / d)
            if np.max(np.abs(got - bug)) < TABLE_TOL:
                return ": it equals m·base^(−i/d), the exponent must be −2i/d"
            return ""

        return self._table("rope_angle_grid", mc.rope_angle_grid, self.inp.rope_sizes, lambda T, d: (T, d // 2),
                           diagnose)
