"""``hearts serve --workers 2``: two server processes on one socket and one database
(SQLite file, and PostgreSQL when HEARTS_TEST_DATABASE_URL names one). A token made
by one worker is known to the other: 40 new players, each then loading its state and
passing on new connections, all succeed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from processes import stop_group

DATABASES = ["sqlite"]
if os.environ.get("HEARTS_TEST_DATABASE_URL"):
    DATABASES.append("postgresql")


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def serve(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
    return subprocess.Popen(
        [sys.executable, "-m", "hearts", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=(tmp_path / "server.log").open("w"),
        text=True,
        env=base | (env or {}),
        start_new_session=True,  # its own process group: stopped with its workers
    )


def stop(proc: subprocess.Popen[str]) -> None:
    stop_group(proc, timeout=30)


@pytest.mark.slow
@pytest.mark.parametrize("database", DATABASES)
def test_two_workers_share_one_database(tmp_path, database) -> None:
    args = ["--workers", "2", "--data-dir", str(tmp_path / "data")]
    if database == "postgresql":
        args += ["--database-url", os.environ["HEARTS_TEST_DATABASE_URL"]]
    # Settings through the environment reach the workers: 40 tokens from one address.
    proc = serve(
        tmp_path, *args, env={"HEARTS_NEW_PLAYER_BURST": "50", "HEARTS_BOT_PROCESSES": "2"}
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), (tmp_path / "server.log").read_text()
        workers = children(proc.pid)
        assert len(workers) >= 2, workers

        def fresh() -> httpx.Client:  # a new connection, so calls spread over the workers
            return httpx.Client(base_url=url, timeout=30, headers={"Connection": "close"})

        codes = []
        for _ in range(40):
            with fresh() as c:
                made = c.post("/api/players")
            codes.append(made.status_code)
            h = {"Authorization": f"Bearer {made.json().get('token')}"}
            with fresh() as c:
                state = c.get("/api/state", headers=h)
            codes.append(state.status_code)
            s = state.json()
            body = {"version": s.get("version"), "cards": s.get("hand", {}).get("cards", [])[:3]}
            with fresh() as c:
                codes.append(c.post("/api/pass", headers=h, json=body).status_code)
        assert codes == [200] * 120
        if database == "sqlite":
            assert (tmp_path / "data" / "hearts.db").is_file()
    finally:
        stop(proc)
    assert proc.returncode == 0, (tmp_path / "server.log").read_text()
