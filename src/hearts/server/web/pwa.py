"""The page as an app on the home screen (issue 39, item 16): ``/sw.js``, the service
worker of ``static/sw.js`` with this release's version and the files it keeps for a
visit without a connection.  It is served from the root so that it may control the
page at ``/`` and the links under ``/r/`` and ``/t/``; the manifests and icons are
ordinary static files (``static/manifest.*.webmanifest``, ``static/icons/``)."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import Response

#: Not kept ahead (the first visit fetches no more than the page itself loads): the
#: worker itself; the icons and manifests, which the browser asks for when it
#: installs the page; the English words and rules, which pwa.js has the worker keep
#: when the page is in English. The worker keeps each of them once it passes through it.
NOT_KEPT = ("sw.js", "icons/", "manifest.", "js/i18n-en.js", "help.en.html")


def kept_files(static_dir: Path, version: str) -> list[str]:
    """The page and every static file it may load, under their versioned URLs."""
    files = ["/"]
    for path in sorted(p for p in static_dir.rglob("*") if p.is_file()):
        name = path.relative_to(static_dir).as_posix()
        if name != "index.html" and not name.startswith(NOT_KEPT):
            files.append(f"/static/v/{version}/{name}")
    return files


def worker_script(static_dir: Path, version: str) -> str:
    head = f"const VERSION = {json.dumps(version)};\n"
    head += f"const FILES = {json.dumps(kept_files(static_dir, version))};\n"
    return head + (static_dir / "sw.js").read_text()


def install(app: FastAPI, static_dir: Path, version: str) -> None:
    """``GET /sw.js`` on ``app`` (404 without the page's files)."""
    script = worker_script(static_dir, version) if (static_dir / "sw.js").is_file() else None

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        if script is None:
            return Response(status_code=404)
        # revalidated at every visit: a new release reaches the player at once
        return Response(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})
