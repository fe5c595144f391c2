"""The commands ``clips`` runs itself: list, render, cache, audit and check (the lecture, stills, handout,
presenter, sheet and studio live beside what they make).  ``UsageError`` is bad input: one line, exit status 2."""


from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from ..catalog import CLIPS, resolve

QUALITIES = ("l", "m", "h", "h60", "k")
TEST_QUALITY = "t"  # 256x144 at 5 fps, for the test suite; not advertised


class UsageError(Exception):
    """Bad input: reported as one line, exit status 2."""



def _quality(args) -> str:
    if args.quality:
        return args.quality
    from mathcore.config import load_config

    return load_config().default_quality


# ------------------------------------------------------------------------------ list
def cmd_list(args) -> int:
    if args.json:
        print(json.dumps([c.as_dict() for c in CLIPS], indent=2, ensure_ascii=False))
        return 0
    width = max((len(c.scene) for c in CLIPS), default=5)
    for c in CLIPS:
        print(f"{c.number:02d}  {c.scene:<{width}}  {c.section:<10}  {c.title}")
    return 0


# ------------------------------------------------------------------------------ render
def cmd_render(args) -> int:
    import shutil

    from . import pipeline as pl

    if args.jobs < 1:
        raise UsageError(f"argument --jobs: must be at least 1, got {args.jobs}")
    student = getattr(args, "student", None)
    if student is not None:  # bad input (no such file, a clip that shows no student function): one line, now
        from . import student as st

        if args.scheduler:
            raise UsageError("--student renders on this machine (the student's numbers stay here); drop --scheduler")
        spath = st.submission_path(student)
        clips = st.student_clips(args.names)
    else:
        if getattr(args, "no_sandbox", False):
            raise UsageError("--no-sandbox goes with --student SUBMISSION")
        clips = resolve(args.names)
    quality = _quality(args)
    limit = _cache_limit(args)
    out = Path(args.out).resolve()
    described = bool(getattr(args, "described", False))
    qdir = out / quality / "described" if described else out / quality
    folder = "described" if described else ""
    if student is not None:  # never over the lecture's clips, with a manifest of its own
        qdir = out / quality / f"student-{st.student_name(spath)}" / folder
        folder = f"student-{st.student_name(spath)}/{folder}"
    t_start = time.monotonic()
    try:
        with pl.OutputLock(out):
            qdir.mkdir(parents=True, exist_ok=True)
            pl.clean_partials(qdir)
            work = out / ".work" / quality / folder
            shutil.rmtree(work, ignore_errors=True)  # a killed run's (this command holds the lock)
            extra = {}
            if student is not None:  # the submission runs once, here, in the sandbox; the workers get its numbers
                source = st.run_student(spath, sandbox=not args.no_sandbox)
                work.mkdir(parents=True, exist_ok=True)
                extra = {"student": source.save(work / "student.npz"), "student_digest": source.digest()}
                print(f"student {source.name}: {spath}")
                for line in st.summary(source, clips):
                    print(line)
            ctx = pl.KeyContext(quality, voice=args.voice, described=described, no_cache=args.no_cache, cache_limit=limit,
                                **extra)
            manifest = pl.Manifest(qdir, quality)
            jobs = pl.plan(ctx, qdir, manifest, clips, args.force)
            todo = [j for j in jobs if j.reason]
            for j in jobs:
                if not j.reason:
                    print(f"  = {j.clip.name}  unchanged")
            if not todo:
                _remove_work(work, out)  # (what a killed run left, and a student's numbers)
                print(f"{len(jobs)} clip(s) up to date in {qdir} ({time.monotonic() - t_start:.2f} s)")
                return 0
            manifest.check_writable()  # an unwritable folder or manifest: one line now, not after the renders
            try:
                if args.scheduler:  # a scheduler that refuses the connection: told at once, before the preflight's Manim
                    from .remote import DaskRunner

                    DaskRunner(args.scheduler).probe()
                pl.preflight(todo, ctx, work)  # every narration brace names a value: one line each, before anything renders
                outcomes = _run(todo, ctx, qdir, work, manifest, args.jobs, args.scheduler)
            finally:
                _remove_work(work, out)
    except OSError as e:  # a folder it may not write, a full disk: one line naming the file (else the folder) and its disk
        if e.errno not in pl.FAULT_ERRNOS:
            raise
        raise pl.RenderFault(pl.fault_message(e.strerror or os.strerror(e.errno), e.filename or str(qdir))) from None
    for line in dict.fromkeys(r for o in outcomes for r in o.repairs):  # damaged cache entries, made again
        print(f"clips: {line}", file=sys.stderr)
    faults = [o for o in outcomes if o.fault]
    if faults:
        raise pl.RenderFault(faults[0].message)
    if not args.no_cache:
        _trim(limit)
    failed = [o for o in outcomes if not o.ok]
    done = len(outcomes) - len(failed)
    print(f"{done} rendered, {len(jobs) - len(todo)} unchanged, {len(failed)} failed "
          f"in {time.monotonic() - t_start:.1f} s -> {qdir}")
    for o in failed:
        print(f"clips: {o.clip.name} failed: {o.message} (log: {o.log})", file=sys.stderr)
    return 1 if failed else 0


def _remove_work(work: Path, out: Path) -> None:
    """The render's work folder, and ``out/.work`` once empty."""
    import shutil

    shutil.rmtree(work, ignore_errors=True)
    for empty in (*[p for p in work.parents if out / ".work" in p.parents], out / ".work"):
        try:
            empty.rmdir()
        except OSError:
            pass


# ------------------------------------------------------------------------------ the cache
def _cache_limit(args) -> int:
    """The cache's size limit in bytes: ``--cache-limit``, else the config's ``cache.limit``."""
    from mathcore.config import SIZE_RULE, load_config, parse_size

    flag = getattr(args, "cache_limit", None)
    if flag is None:
        return load_config().cache_limit_bytes
    try:
        return parse_size(flag)
    except ValueError:
        raise UsageError(f"argument --cache-limit: {flag!r} is not {SIZE_RULE}") from None


def _trim(limit: int) -> None:
    from clipcache import store

    store().trim(limit)


def cmd_cache(args) -> int:
    """What the cache holds per kind (entries, bytes) against its limit; ``--clear`` empties it."""
    from clipcache import KINDS, human, store

    limit = _cache_limit(args)
    s = store()
    if args.clear:
        gone = s.clear()
        print(f"cleared {s.root}: {gone.entries} entries, {human(gone.bytes)}")
        return 0
    s.trim(limit)
    usage = s.usage()
    total = sum(u.bytes for u in usage.values())
    if args.json:
        print(json.dumps({"root": str(s.root), "limit": limit, "bytes": total,
                          "kinds": {k: {"entries": u.entries, "bytes": u.bytes} for k, u in usage.items()}}, indent=2))
        return 0
    print(f"{s.root}: {human(total)} of {human(limit)}, least recently used first out")
    print(f"  {'kind':<10} {'entries':>8} {'size':>10}")
    for k in KINDS:
        print(f"  {k:<10} {usage[k].entries:>8} {human(usage[k].bytes):>10}")
    print(f"  {'total':<10} {sum(u.entries for u in usage.values()):>8} {human(total):>10}")
    return 0


def _run(todo, ctx, qdir, workroot, manifest, jobs, scheduler=None):
    """Draw progress while the pipeline executes the plan (locally or on a cluster)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from . import pipeline as pl

    console = Console(stderr=False)
    n = len(todo)
    where = f"cluster {scheduler}" if scheduler else f"{jobs} job(s)"
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("anims"),
        TimeElapsedColumn(), console=console, transient=False, disable=not console.is_terminal,
    )
    tasks = {}
    with progress:
        deck = progress.add_task(f"deck: {n} clip(s), {where}", total=n)
        for i, j in enumerate(todo, 1):
            tasks[j.clip.number] = progress.add_task(
                f"clip {i}/{n} {j.clip.name} ({j.reason})", total=j.expected_animations, start=False)

        def started(clip):
            progress.start_task(tasks[clip.number])

        def on_progress(clip, played):
            t = tasks[clip.number]
            progress.start_task(t)
            total = progress.tasks[t].total
            progress.update(t, completed=played, total=max(total or 0, played) if total else None)

        def finished(o):
            t = tasks[o.clip.number]
            if o.ok:
                done = progress.tasks[t].completed or 1
                progress.update(t, total=done, completed=done)
            progress.advance(deck)
            mark = "✓" if o.ok else "✗"
            console.print(f"  {mark} {o.clip.name}  {o.seconds:.1f} s" + ("" if o.ok else f"  (log: {o.log})"))

        events = pl.Events(started=started, progress=on_progress, finished=finished)
        if scheduler:
            from .remote import DaskRunner

            runner = DaskRunner(scheduler)
        else:
            runner = pl.LocalRunner(jobs)
        return pl.execute(todo, ctx, qdir, workroot, manifest, runner, events)


# ------------------------------------------------------------------------------ audit
def _write_beat_frames(res, folder: Path) -> None:
    """``beat_NN_<key>.png`` for every beat of an audited clip (written aside, then renamed)."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("beat_*.png"):
        old.unlink()
    for k, (key, frame) in enumerate(res.beat_frames):
        dst = folder / f"beat_{k:02d}_{key}.png"
        tmp = dst.with_name(dst.name + ".partial")
        Image.fromarray(frame).save(tmp, format="PNG")
        os.replace(tmp, dst)


def _frame_size(args) -> tuple[int, int]:
    try:
        size = tuple(int(v) for v in args.size.lower().split("x"))
        assert len(size) == 2 and min(size) >= 16
    except (ValueError, AssertionError):
        raise UsageError(f"--size must be WIDTHxHEIGHT in pixels (e.g. 1920x1080), got {args.size!r}") from None
    return size


def cmd_audit(args) -> int:
    """Run each clip with animations skipped and report every layout problem, beat by beat."""
    import tempfile

    from mathcore.config import load_config

    from .matrix import audit_matrix, scene_class

    student = None
    if getattr(args, "student", None) is not None:
        from . import student as st

        if args.matrix:
            raise UsageError("--student audits the clips on the lecture's config; drop --matrix")
        spath = st.submission_path(args.student)
        clips = st.student_clips(args.names)
    else:
        if getattr(args, "no_sandbox", False):
            raise UsageError("--no-sandbox goes with --student SUBMISSION")
        clips = resolve(args.names)
    load_config()  # a bad config is one line and exit 2 before anything runs
    limit = _cache_limit(args)
    if args.student is not None:  # the submission runs once, here, in the sandbox
        student = st.run_student(spath, sandbox=not args.no_sandbox)
        print(f"student {student.name}: {spath}")
        for line in st.summary(student, clips):
            print(line)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for c in clips:
            try:
                if args.matrix:  # with --frames, each corner's beats into DIR/<clip>/<corner>/
                    size = _frame_size(args) if args.frames else None
                    results = audit_matrix(c, Path(tmp), cached=True, beat_frames=size)
                    if size:
                        for corner, res in results.items():
                            _write_beat_frames(res, Path(args.frames) / c.name / corner)
                elif student is not None:  # a student's numbers: never the lecture's audit cache
                    from scenes.audit.beats import audit_clip

                    size = _frame_size(args) if args.frames else None
                    results = {f"student {student.name}": audit_clip(scene_class(c), beat_frames=size, student=student)}
                    if size:
                        _write_beat_frames(results[f"student {student.name}"], Path(args.frames) / c.name)
                elif not args.frames:  # what was found is kept under the render key: a rerun is instant
                    from .auditcache import audit

                    results = {"config": audit(c, load_config(), scene_class(c))}
                else:
                    from scenes.audit.beats import audit_clip

                    size = _frame_size(args) if args.frames else None
                    results = {"config": audit_clip(scene_class(c), beat_frames=size)}
                    if size:
                        _write_beat_frames(results["config"], Path(args.frames) / c.name)
            except Exception as e:  # a clip that crashes is reported and the others still run
                bad += 1
                print(f"  ✗ {c.name}  crashed: {type(e).__name__}: {e}")
                continue
            for corner, res in results.items():
                n = len(res.problems)  # layout, lecture language and contrast, every beat
                bad += n
                mark = "✓" if not n else "✗"
                took = f"{res.duration:.1f} s"
                if getattr(res, "cached", False):  # kept by `clips audit`, or by the render that drew the clip
                    took = f"unchanged since it was {'rendered' if res.kept_by == 'render' else 'audited'}"
                print(f"  {mark} {c.name} [{corner}]  {len(res.records)} beats, {n} problem(s)  {took}")
                for p in res.problems:
                    print(f"      {p}")
                pending = [p for p in getattr(res, "truth", []) if p not in res.problems]
                if pending:  # a clip not yet held to the truth checks (ClipScene.STAGED): what restaging must fix
                    print(f"    {len(pending)} finding(s) of the truth checks, not yet held against it:")
                    for p in pending:
                        print(f"      · {p}")
    print(f"audit: {len(clips)} clip(s), {bad} problem(s)")
    if not args.no_cache:
        _trim(limit)
    return 1 if bad else 0


# ------------------------------------------------------------------------------ check
def cmd_check(args) -> int:
    """Grade submissions against the lecture's reference (microscope/); on a cluster with --scheduler."""
    from mathcore.config import load_config
    from microscope.checks import CheckInputs
    from microscope.cli import CheckUsageError, run

    client = None
    if args.scheduler:
        from .remote import DaskRunner

        client = DaskRunner(args.scheduler)._client()  # an unreachable scheduler: one line, exit 2
    try:
        return run(args.submissions, args.out, args.jobs, args.json, args.timeout, args.memory, not args.no_sandbox,
                   CheckInputs.from_config(load_config()), client)
    except CheckUsageError as e:
        raise UsageError(str(e)) from None
    finally:
        if client is not None:
            client.close()


