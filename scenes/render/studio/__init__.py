"""``clips studio``: a live preview in the browser that follows every edit.

    clips studio [NAME ...] [-q l|m|h|h60|k] [--out DIR] [--port N] [--host ADDR] [--jobs N]
                 [--voice piper|recorded|none] [--no-open]

A local web server (aiohttp, on 127.0.0.1 unless told otherwise) serves a page made of the presenter's own
player (``presenter.js``: beat stops, captions, descriptions, keys), the clip list beside it and, for the
clip on screen, every beat's caption, description and spoken variant, editable in place.

A file watcher (``watchfiles``) follows what the clips are made of: the lecture config, the narration
files, the lecturer's recordings and the code under ``scenes/`` and ``mathcore/``.  An edit goes through
the same checks and the same render plan as ``clips render`` (``pipeline.KeyContext``, ``is_current``:
only the clips whose key changed render, beat-level reuse inside them), in workers forked from the same
warm server (``forked.py``), into ``OUT/studio/QUALITY/`` (480p by default): the lecture's own clips in
``OUT/QUALITY/`` are never touched, and every file is placed atomically (``pipeline.commit``).  The page is
told over server-sent events and plays the clip again from the first beat that changed.

* Two edits in quick succession render once: the watcher gathers a burst of saves, and a render an
  edit has made stale (its key changed) is stopped and started again on the new input.
* Bad input (invalid TOML, a ``{brace}`` naming no value, a config value out of range, a clip module
  that does not compile, a render that fails) is one line on the page, where it belongs (the config's
  banner, the clip, the beat's field), and the page keeps playing the last good render; fixing it
  resumes.
* An edit made in the page is written into the narration file with ``tomlkit`` (comments, order and
  layout kept) and is then an edit of that file like any other.
* Code edits restart the warm server (its workers must import the new code) once no worker runs.

The videos are served from ``OUT/studio/QUALITY/media/<sha256>.<ext>``: a name per content, so a page
still playing the previous render never reads half of the next one.

The package, read in this order: ``common`` (settings, the one-line problems and where they belong),
``edits`` (edits written back with ``tomlkit``; which beat changed), ``jobs`` (the studio's state and its
jobs), ``engine`` (watcher, plan, warm workers) and ``server`` (the page, its events, ``cmd_studio``).
"""

from .common import (DEFAULT_PORT, DEFAULT_QUALITY, FIELDS, KEEP_VERSIONS, STUDIO_DIR, WATCH_STEP_MS, Problem,
                     StudioError, code_problems, config_problems, failure_problem, narration_problems, rel, short,
                     toml_entries, where_in_narration)
from .edits import edit_narration, first_changed_beat, section_rows
from .engine import Engine, restart_server, warm_server, watch, watch_roots, watched
from .jobs import Job, Studio
from .server import cmd_studio, make_app, page, serve

__all__ = ["DEFAULT_PORT", "DEFAULT_QUALITY", "FIELDS", "KEEP_VERSIONS", "STUDIO_DIR", "WATCH_STEP_MS", "Problem",
           "StudioError", "code_problems", "config_problems", "failure_problem", "narration_problems", "rel", "short",
           "toml_entries", "where_in_narration", "edit_narration", "first_changed_beat", "section_rows", "Engine",
           "restart_server", "warm_server", "watch", "watch_roots", "watched", "Job", "Studio", "cmd_studio",
           "make_app", "page", "serve"]
