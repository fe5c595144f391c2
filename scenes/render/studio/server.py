"""The web server (aiohttp) and ``cmd_studio``: the page, its events and its edits."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sys
from importlib import resources
from pathlib import Path

from .. import pipeline as pl
from .common import DEFAULT_QUALITY, STUDIO_DIR, StudioError, short
from .edits import edit_narration
from .engine import Engine, warm_server, watch
from .jobs import Studio


# ------------------------------------------------------------------------------ the web server
def _asset(name: str) -> str:
    # the page's files sit beside the presenter's, in scenes/render/
    return resources.files("scenes.render").joinpath(name).read_text(encoding="utf-8")


def page(studio: Studio) -> str:
    from ..present import render_page

    deck = {"quality": studio.quality, "clips": studio.deck_list(), "studio": True}
    t = 0.0
    for c in deck["clips"]:
        c["at"] = round(t, 6)
        t += c.get("length") or c["duration"]
    deck["total"] = round(t, 6)
    extra = {"css": _asset("studio.css"), "app": _asset("studio.html"),
             "body": "<script>\n" + _asset("studio.js") + "\n</script>"}
    return render_page(deck, studio.heading(), extra).replace(
        '<meta name="generator" content="clips present">', '<meta name="generator" content="clips studio">')


def make_app(studio: Studio, engine: Engine):
    from aiohttp import web

    routes = web.RouteTableDef()

    @routes.get("/")
    async def index(request):
        return web.Response(text=page(studio), content_type="text/html", headers={"Cache-Control": "no-store"})

    @routes.get("/api/state")
    async def state(request):
        return web.json_response({"deck": studio.deck_list(), "status": studio.status()},
                                 headers={"Cache-Control": "no-store"})

    @routes.get("/api/timeline")
    async def timeline(request):
        return web.json_response(studio.timeline)

    @routes.get("/events")
    async def events(request):
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                           "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        q: asyncio.Queue = asyncio.Queue()
        studio.clients.add(q)
        try:
            await resp.write(f"event: state\ndata: {json.dumps(studio.status(), ensure_ascii=False)}\n\n".encode())
            while True:
                try:
                    msg = await asyncio.wait_for(q.get(), timeout=15)
                except asyncio.TimeoutError:
                    msg = ": keep-alive\n\n"
                await resp.write(msg.encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            studio.clients.discard(q)
        return resp

    @routes.post("/api/focus")
    async def focus(request):
        body = await request.json()
        name = str(body.get("clip", ""))
        if name in studio.deck and name != studio.focus:
            studio.focus = name
            engine.kick()
        return web.json_response({"ok": True})

    @routes.post("/api/edit")
    async def edit(request):
        from ...kit.base import narration_file

        try:
            body = await request.json()
            c = next((c for c in studio.clips if c.name == body.get("clip")), None)
            if c is None:
                raise ValueError(f"no clip {body.get('clip')!r} in this studio")
            path = narration_file(c)
            edit_narration(path, c.slug, str(body.get("key", "")), str(body.get("field", "")), body.get("text", ""),
                           body.get("expect"))
        except ValueError as e:
            return web.json_response({"ok": False, "error": short(str(e))}, status=409)
        studio.note("edit", clip=c.name, key=body.get("key"), field=body.get("field"))
        engine.changed({path})  # at once, the path a saved file takes (the watcher's own event then finds no change)
        return web.json_response({"ok": True})

    @routes.get("/media/{name}")
    async def media(request):
        name = request.match_info["name"]
        if not re.fullmatch(r"[0-9a-f]{20}\.(mp4|png)", name):
            raise web.HTTPNotFound()
        p = studio.media / name
        if not p.exists():
            raise web.HTTPNotFound()
        return web.FileResponse(p, headers={"Cache-Control": "public, max-age=31536000, immutable"})

    app = web.Application()
    app.add_routes(routes)
    return app


async def serve(studio: Studio, host: str, port: int, open_browser: bool, ready=None) -> None:
    from aiohttp import web

    engine = Engine(studio)
    studio.loop = asyncio.get_running_loop()
    studio.wake = asyncio.Event()
    app = make_app(studio, engine)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        raise StudioError(f"cannot listen on {host}:{port} ({e.strerror or e}); choose another with --port "
                          f"(0: any free port)") from None
    bound = site._server.sockets[0].getsockname()[1] if site._server and site._server.sockets else port
    url = f"http://{'localhost' if host in ('127.0.0.1', '::1', 'localhost') else host}:{bound}/"
    names = ", ".join(c.name for c in studio.clips) if len(studio.clips) <= 4 else f"{len(studio.clips)} clips"
    print(f"studio: {names} at quality {studio.quality} -> {studio.qdir}", flush=True)
    print(f"studio: open {url}  (Ctrl+C stops)", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    if open_browser:
        import webbrowser

        loop.run_in_executor(None, webbrowser.open, url)
    tasks = [asyncio.create_task(engine.schedule()), asyncio.create_task(watch(engine, stop))]
    await loop.run_in_executor(None, warm_server)
    studio.note("warm")
    engine.broadcast()
    engine.kick()
    try:
        await stop.wait()
    finally:
        for job in list(studio.running.values()):
            job.cancel()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await runner.cleanup()
        print("studio: stopped", flush=True)


def cmd_studio(args) -> int:
    import logging

    from ...catalog import resolve

    for name in ("fontTools", "watchfiles", "watchfiles.main", "aiohttp.access"):  # the page says what happens; no log lines a second
        logging.getLogger(name).setLevel(logging.WARNING)

    clips = resolve(args.names)
    quality = args.quality or DEFAULT_QUALITY
    out = Path(args.out).resolve()
    if args.jobs < 1:
        raise StudioError(f"argument --jobs: must be at least 1, got {args.jobs}")
    if not 0 <= args.port <= 65535:
        raise StudioError(f"argument --port: a port from 0 to 65535, got {args.port}")
    with pl.OutputLock(out / STUDIO_DIR):
        studio = Studio(clips, quality, out, args.voice, args.jobs)
        for p in studio.all_problems():  # said on the page too, where it can be fixed while the studio runs
            print(f"clips studio: {p.message}", file=sys.stderr)
        asyncio.run(serve(studio, args.host, args.port, not args.no_open))
    return 0
