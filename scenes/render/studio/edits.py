"""Edits made in the page, written back into the narration files (``tomlkit``), and which beat an edit changed."""

from __future__ import annotations

import os
from pathlib import Path

from .common import FIELDS, rel


# ------------------------------------------------------------------------------ narration edits
def edit_narration(path: Path, slug: str, key: str, fld: str, text: str, expect: str | None = None) -> None:
    """Write one beat's caption, description or spoken variant into the narration file with ``tomlkit``:
    every other line, comment and blank line stays as it was.  An empty description or spoken variant
    removes the entry; the file is written aside and renamed.  Raises ``ValueError`` (one line) when the
    edit cannot be made (the file does not parse, the beat is unknown, the caption would be empty, or
    ``expect``, the text the page last saw, is no longer what the file says)."""
    import tomlkit

    if fld not in FIELDS:
        raise ValueError(f"a beat's field is one of {', '.join(FIELDS)}, got {fld!r}")
    text = " ".join(str(text).split())  # one line, as every entry of the narration files
    where = rel(path)
    try:
        doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    except Exception as e:  # noqa: BLE001 - tomlkit's parse errors have no common base worth naming
        raise ValueError(f"{where} does not parse ({e}); fix it in the file first") from None
    section = doc.get(slug)
    if section is None or not hasattr(section, "get"):
        raise ValueError(f"{where}: section [{slug}] is missing")
    if fld == "caption":
        if not isinstance(section.get(key), str):
            raise ValueError(f"{where}: [{slug}] has no caption {key!r}")
        table = section
    else:
        if not isinstance(section.get(key), str):
            raise ValueError(f"{where}: [{slug}] has no beat {key!r}")
        table = section.get(fld)
    current = str(table[key]) if table is not None and key in table else ""
    if expect is not None and " ".join(expect.split()) != " ".join(current.split()):
        raise ValueError(f"{where}: [{slug}{'' if fld == 'caption' else '.' + fld}].{key} was changed in the file "
                         f"meanwhile; the page now shows the file's text")
    if fld == "caption" and not text:
        raise ValueError(f"{where}: [{slug}].{key}: a beat's caption cannot be empty")
    if text == current:
        return
    if fld == "caption":
        section[key] = text
    elif text:
        if table is None:
            table = tomlkit.table()
            section.append(fld, table)
        table[key] = text
    elif table is not None and key in table:
        del table[key]
    tmp = path.with_name(f".{path.name}.{os.getpid()}.studio")
    tmp.write_text(tomlkit.dumps(doc), encoding="utf-8")
    try:
        os.chmod(tmp, path.stat().st_mode & 0o7777)
    except OSError:
        pass
    os.replace(tmp, path)


def section_rows(section: dict | None, rendered: list[dict]) -> list[dict]:
    """The beats panel of one clip: every caption of its narration section in file order (raw, with its
    braces), its description and spoken variant, and what the last render showed and said of it."""
    from ...narration.voice import spoken

    if not isinstance(section, dict):
        return []
    describe = section.get("describe") if isinstance(section.get("describe"), dict) else {}
    say = section.get("say") if isinstance(section.get("say"), dict) else {}
    shown = {b["key"]: b for b in rendered}
    rows = []
    for key, value in section.items():
        if not isinstance(value, str):
            continue
        b = shown.get(key)
        rows.append({
            "key": key, "caption": value, "describe": describe.get(key, "") if isinstance(describe.get(key, ""), str) else "",
            "say": say.get(key, "") if isinstance(say.get(key, ""), str) else "",
            "rendered": b is not None, "text": b["text"] if b else "", "described": b.get("describe", "") if b else "",
            "spoken": spoken(b["text"]) if b and b["text"] else "",
        })
    return rows


# ------------------------------------------------------------------------------ which beat changed
def _frame_packets(mp4: Path) -> tuple[list[bytes], float, float]:
    """The video's packets in presentation order (one per frame), its frame length and first time."""
    import av

    with av.open(str(mp4)) as c:
        s = c.streams.video[0]
        pk = sorted((p.pts, bytes(p)) for p in c.demux(s) if p.pts is not None and p.size)
        rate = s.average_rate or s.guessed_rate or 1
        t0 = float(pk[0][0] * s.time_base) if pk else 0.0
        return [b for _, b in pk], float(1 / rate), t0


def first_changed_beat(old: dict | None, new: dict, old_mp4: Path | None, new_mp4: Path, hints: set[str]) -> int:
    """The first beat of the new render that differs from the old one: its caption, description or
    timing, its picture (the first frame whose encoded bytes differ: an unchanged segment is copied
    bit for bit), or an edit known to touch it (``hints``: beat keys whose narration or recording changed)."""
    beats = new.get("beats") or []
    if not beats:
        return 0
    if not old:
        return 0
    candidates = [len(beats)]
    ob = old.get("beats") or []
    for i, b in enumerate(beats):
        if i >= len(ob):
            candidates.append(i)
            break
        o = ob[i]
        if (o["key"], o["text"], o.get("describe", ""), round(o["start"], 4), round(o["duration"], 4)) != \
                (b["key"], b["text"], b.get("describe", ""), round(b["start"], 4), round(b["duration"], 4)):
            candidates.append(i)
            break
    candidates += [i for i, b in enumerate(beats) if b["key"] in hints]
    if old_mp4 is not None and old_mp4.exists():
        try:
            a, fd, t0 = _frame_packets(old_mp4)
            b, fd, t0 = _frame_packets(new_mp4)
            f = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            if f < max(len(a), len(b)):
                t = t0 + (f + 0.5) * fd
                candidates.append(next((i for i, bt in enumerate(beats) if bt["start"] + bt["duration"] > t), len(beats) - 1))
        except Exception:  # noqa: BLE001 - an unreadable old file: the other signs decide
            pass
    first = min(candidates)
    return 0 if first >= len(beats) else first  # nothing tells them apart: the whole clip


