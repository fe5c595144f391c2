"""``clips``: list, render, assemble and review the lecture's clips.

    clips list [--json]
    clips render [NAME ...] [--quality l|m|h|k] [--out DIR] [--jobs N] [--force] [--voice piper|recorded|none]
                 [--scheduler tcp://HOST:PORT] [--no-cache] [--cache-limit SIZE]
    clips lecture [--quality Q] [--out DIR]
    clips stills [NAME ...] [--theme dark|light] [--out DIR]
    clips handout [--theme light|dark] [--out DIR]
    clips sheet [NAME ...] [--quality Q] [--out DIR] [--beats]
    clips present [--quality Q] [--out DIR]
    clips render --student SUBMISSION [NAME ...] [--quality Q] [--out DIR] [--no-sandbox] ...
    clips audit [NAME ...] [--matrix] [--student SUBMISSION] [--frames DIR] [--no-cache] [--cache-limit SIZE]
    clips cache [--clear] [--json] [--cache-limit SIZE]
    clips check SUBMISSION ... [--out DIR] [--jobs N] [--json] [--timeout S] [--memory MIB] [--no-sandbox]
                [--scheduler tcp://HOST:PORT]
    clips studio [NAME ...] [--quality Q] [--out DIR] [--port N] [--host ADDR] [--jobs N] [--voice V] [--no-open]

Bad input (an unknown clip, a bad config value, a narration brace naming no value, a busy output
folder) and a fault of the machine (no space left, a folder it may not write) are one line on stderr
and exit status 2, and leave the outputs as they were.  A clip that fails to render is reported with
its log and the others still render; the command then exits 1.

The parser and the entry point are here; the commands ``clips`` runs itself are in ``commands``.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..catalog import UnknownClipError
from .commands import (
    QUALITIES,
    TEST_QUALITY,
    UsageError,
    _quality,
    cmd_audit,
    cmd_cache,
    cmd_check,
    cmd_list,
    cmd_render,
)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="clips", description="Render the lecture's clips.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    ls = sub.add_parser("list", help="every clip in lecture order")
    ls.add_argument("--json", action="store_true", help="machine-readable output")

    def caching(sp, no_cache=True):
        if no_cache:
            sp.add_argument("--no-cache", action="store_true",
                            help="read nothing from .render-cache/ and keep nothing there; fresh worker processes")
        sp.add_argument("--cache-limit", metavar="SIZE", default=None,
                        help='trim .render-cache/ to SIZE, least recently used first (e.g. "2 GB"; default: the '
                             "config's cache.limit)")

    def common(sp, names=True, quality=True):
        if names:
            sp.add_argument("names", nargs="*", metavar="NAME", help="clip number, slug or scene class (default: all)")
        if quality:
            sp.add_argument("--quality", "-q", choices=QUALITIES + (TEST_QUALITY,), default=None,
                            help="l=480p15 (preview) m=720p30 h=1080p30 (lecture) h60=1080p60 k=2160p30 "
                                 "(default: the config's)")
        sp.add_argument("--out", default="out", help="output folder (default: out)")

    r = sub.add_parser("render", help="render clips into OUT/QUALITY/")
    common(r)
    r.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="parallel workers (default: cores)")
    r.add_argument("--force", action="store_true", help="render even if nothing changed")
    r.add_argument("--voice", choices=("piper", "recorded", "none"), default=None,
                   help="the voice track (default: the config's voice.engine); none renders silent clips")
    r.add_argument("--scheduler", metavar="tcp://HOST:PORT", default=None,
                   help="render on a Dask cluster (its workers run from the same commit of this project)")
    r.add_argument("--described", action="store_true",
                   help="the extended audio-description version: the picture holds while each description is "
                        "spoken (into OUT/QUALITY/described/)")
    student_options(r)
    caching(r)

    le = sub.add_parser("lecture", help="join the rendered clips into OUT/QUALITY/lecture.mp4")
    common(le, names=False)
    le.add_argument("--described", action="store_true", help="join the described clips (OUT/QUALITY/described/)")

    st = sub.add_parser("stills", help="each clip's designed stills (PNG and SVG) into OUT/stills/THEME/")
    common(st, quality=False)
    st.add_argument("--theme", choices=("dark", "light"), default="dark", help="dark: slides (default); light: print")

    ho = sub.add_parser("handout", help="the lecture as one printable PDF: OUT/handout-THEME.pdf")
    common(ho, names=False, quality=False)
    ho.add_argument("--theme", choices=("light", "dark"), default="light", help="light: print (default); dark: screen")

    pr = sub.add_parser("present", help="a presenter page that stops at every beat: OUT/QUALITY/present/index.html")
    common(pr, names=False)

    sh = sub.add_parser("sheet", help="contact sheets of rendered clips into OUT/QUALITY/sheets/")
    common(sh)
    sh.add_argument("--beats", action="store_true", help="also a full-size PNG of the end of every beat and beats.txt "
                    "(each beat's span, narration and description): what a frame review reads")

    so = sub.add_parser("studio", help="a live preview in the browser: every edit re-rendered and played from the "
                                       "beat it changed (OUT/studio/QUALITY/)")
    so.add_argument("names", nargs="*", metavar="NAME", help="clip number, slug or scene class (default: all)")
    so.add_argument("--quality", "-q", choices=QUALITIES + (TEST_QUALITY,), default=None,
                    help="the preview's quality (default: l, 480p15)")
    so.add_argument("--out", default="out", help="output folder; the studio writes OUT/studio/QUALITY/ (default: out)")
    so.add_argument("--port", type=int, default=8765, help="the page's port (default 8765; 0: any free port)")
    so.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    so.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="clips rendered side by side while the deck fills in (an edit renders alone; default: cores)")
    so.add_argument("--voice", choices=("piper", "recorded", "none"), default=None,
                    help="the voice track (default: the config's voice.engine)")
    so.add_argument("--no-open", action="store_true", help="do not open the page in a browser")

    au = sub.add_parser("audit", help="check every beat's layout (frame, overlaps, text size) without rendering")
    au.add_argument("names", nargs="*", metavar="NAME", help="clip number, slug or scene class (default: all)")
    au.add_argument("--matrix", action="store_true", help="also every corner config of the test matrix")
    au.add_argument("--frames", metavar="DIR", help="also write the picture at the end of every beat as PNGs into "
                    "DIR/NN_slug/ (no video is rendered)")
    au.add_argument("--size", default="1920x1080", metavar="WxH", help="size of the --frames PNGs (default 1920x1080)")
    student_options(au)
    caching(au)

    ca = sub.add_parser("cache", help="what .render-cache/ holds, per kind; --clear empties it")
    ca.add_argument("--clear", action="store_true", help="remove every entry")
    ca.add_argument("--json", action="store_true", help="machine-readable output")
    caching(ca, no_cache=False)

    ck = sub.add_parser("check", help="check notebook-05 submissions (.py or .ipynb, or folders of them) in a sandbox")
    ck.add_argument("submissions", nargs="+", metavar="SUBMISSION", help="a .py file, a notebook or a folder")
    ck.add_argument("--out", default="out/check", help="reports and gradebook folder (default: out/check)")
    ck.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="submissions at once (default: cores)")
    ck.add_argument("--json", action="store_true", help="the reports as JSON on stdout")
    ck.add_argument("--timeout", type=float, default=10.0, help="seconds one check may take (default: 10)")
    ck.add_argument("--memory", type=int, default=1024, metavar="MIB", help="memory per submission (default: 1024)")
    ck.add_argument("--no-sandbox", action="store_true", help="UNSAFE: run the code without the bwrap sandbox")
    ck.add_argument("--scheduler", metavar="tcp://HOST:PORT", default=None, help="check on a Dask cluster")
    return p


def student_options(sp) -> None:
    sp.add_argument("--student", metavar="SUBMISSION", default=None,
                    help="draw the clips that show the notebook's functions from a student's .py or .ipynb (run once, "
                         "in the sandbox); render: into OUT/QUALITY/student-NAME/")
    sp.add_argument("--no-sandbox", action="store_true",
                    help="with --student, UNSAFE: run the submission without the bwrap sandbox")



# ------------------------------------------------------------------------------ entry point
def _student_error() -> type:
    from .student import StudentUsageError

    return StudentUsageError



def one_line_errors() -> tuple[type, ...]:
    """The error types whose message is the whole story (bad input or a busy folder): one line,
    exit status 2.  Caught by type; the narration's error is looked up only if the base scene was
    imported (nothing else can raise it), so this never imports Manim."""
    from scenes.narration.voice import VoiceError

    from .pipeline import LectureError, NarrationProblem, RenderFault, RenderLockedError
    from .remote import ClusterError
    from .studio import StudioError

    kinds = [VoiceError, LectureError, RenderLockedError, ClusterError, RenderFault, NarrationProblem, StudioError]
    base = sys.modules.get("scenes.kit.base")
    if base is not None:
        kinds.append(base.NarrationError)
    return tuple(kinds)


def _check_config(args) -> None:
    """Every command but ``list`` starts here: the config loads (a bad value is one line, exit 2,
    before anything runs), the voice can read its texts, and a config from an earlier release
    is told in one line which defaults it got."""
    from mathcore.config import defaults_notice, load_config

    from .pipeline import check_config_text

    cfg = load_config()
    if args.command in ("render", "audit"):
        check_config_text(cfg, getattr(args, "voice", None) or cfg.voice)
    note = defaults_notice(cfg)
    if note:
        print(f"clips: {note}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    from mathcore.config import ConfigError

    try:
        args = _parser().parse_args(argv)
        if args.command == "list":
            return cmd_list(args)
        _prepare_cache(args)  # first: --force and --no-cache hold for everything the command reads, its config's checks too
        if args.command == "studio":  # a bad config is shown on the page, where it can be fixed while it runs
            from .studio import cmd_studio

            return cmd_studio(args)
        _check_config(args)
        if args.command == "cache":
            return cmd_cache(args)
        if args.command == "render":
            return cmd_render(args)
        if args.command == "lecture":
            from .assemble import cmd_lecture

            return cmd_lecture(args, _quality(args))
        if args.command == "stills":
            from .stills import cmd_stills

            return cmd_stills(args)
        if args.command == "handout":
            from .handout import cmd_handout

            return cmd_handout(args)
        if args.command == "present":
            from .present import cmd_present

            return cmd_present(args, _quality(args))
        if args.command == "audit":
            return cmd_audit(args)
        if args.command == "check":
            return cmd_check(args)
        if args.command == "sheet":
            from .assemble import cmd_sheet

            return cmd_sheet(args, _quality(args))
    except (UsageError, UnknownClipError, ConfigError, _student_error()) as e:
        print(f"clips: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # pipeline errors with their own one-line message
        if isinstance(e, one_line_errors()):
            for line in str(e).splitlines():
                print(f"clips: {line}", file=sys.stderr)
            return 2
        from .pipeline import fault_of

        fault = fault_of(e)  # a folder it may not write, a full disk: one line naming the file and the disk
        if fault is not None:
            print(f"clips: {fault}", file=sys.stderr)
            return 2
        raise
    return 0


def _prepare_cache(args) -> None:
    """This command's cache: what killed commands left is removed, and ``--no-cache`` reads and keeps
    nothing (``--force`` is the render workers' own); a command that builds clips here gets the patches
    every such process uses (scenes/render/patches.py)."""
    import clipcache

    if args.command == "check":
        return
    mode = "off" if getattr(args, "no_cache", False) else "refresh" if getattr(args, "force", False) else "on"
    s = clipcache.configure(mode)
    s.clean()
    if args.command in ("audit", "handout", "stills"):
        from . import patches

        patches.install_building()


if __name__ == "__main__":
    sys.exit(main())
