"""``hearts serve`` as an operator meets it: a data dir, database, port or setting it
cannot use is one short line on stderr and exit status 1 (2 for a malformed value),
never a traceback; on every interface it prints the addresses it really answers on
(the first a usable loopback URL) and says it serves plain HTTP; --seed on an address
others can reach is warned about."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from hearts.server.addresses import ipv4_addresses, ipv6_addresses


def hearts_serve(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
    return subprocess.Popen(
        [sys.executable, "-m", "hearts", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=base | {"HEARTS_BOT_PROCESSES": "1"} | (env or {}),
        start_new_session=True,
    )


def refused(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    proc = hearts_serve("--port", "0", *args, env=env)
    out, err = proc.communicate(timeout=60)
    assert out == "", out
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return proc.returncode, lines[0]


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "a_file"
    path.write_text("not a directory")
    return path


def test_a_data_dir_that_cannot_be_made_is_one_line(a_file) -> None:
    code, line = refused("--data-dir", str(a_file / "hearts"))
    assert code == 1 and line.startswith("hearts serve: cannot use the data dir"), line
    code, line = refused("--data-dir", str(a_file))
    assert code == 1 and "not a directory" in line, line


def test_a_database_file_that_cannot_be_opened_is_one_line(tmp_path) -> None:
    (tmp_path / "hearts.db").mkdir()  # where the database file should be
    code, line = refused("--data-dir", str(tmp_path))
    assert code == 1 and line.startswith("hearts serve: cannot open the database sqlite:"), line


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("nosuchdialect://x/y", "Can't load plugin"),
        ("this is not a url", "Could not parse"),
        ("postgresql+psycopg://hearts:s3cret@127.0.0.1:1/hearts", "127.0.0.1"),
    ],
)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bad_database_url_is_one_line(url, says, workers) -> None:
    code, line = refused("--database-url", url, "--workers", workers)
    assert code == 1, line
    assert line.startswith("hearts serve: cannot open the database"), line
    assert says in line and "s3cret" not in line, line


def test_a_port_in_use_is_one_line(tmp_path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, line = refused("--port", str(port), "--data-dir", str(tmp_path))
    assert code == 1 and line.startswith(f"hearts serve: cannot listen on 127.0.0.1:{port}"), line


def test_a_malformed_setting_in_the_environment_is_one_line(tmp_path) -> None:
    code, line = refused("--data-dir", str(tmp_path), env={"HEARTS_WORKERS": "two"})
    assert code == 2 and line == "hearts serve: HEARTS_WORKERS: not an integer: 'two'", line


def run_until_address(*args: str) -> tuple[list[str], str]:
    """Start, read the address lines, then stop: (stdout lines, stderr)."""
    proc = hearts_serve("--port", "0", *args)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().strip()
        assert first.startswith("http://"), first
        with httpx.Client(timeout=30) as c:
            assert c.get(first).status_code == 200  # the first line is usable here
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    # not communicate(): it would miss what readline() already buffered
    assert proc.stdout is not None and proc.stderr is not None
    return [first, *proc.stdout.read().split()], proc.stderr.read()


def test_every_interface_prints_each_address_loopback_first(tmp_path) -> None:
    urls, err = run_until_address("--host", "0.0.0.0", "--data-dir", str(tmp_path))
    port = urls[0].rstrip("/").rsplit(":", 1)[1]
    assert urls[0] == f"http://127.0.0.1:{port}/"
    assert {f"http://{a}:{port}/" for a in ipv4_addresses()} == set(urls)
    assert "plain HTTP" in err and "docs/deploy.md" in err, err
    assert "--seed" not in err


def test_every_address_printed_answers(tmp_path) -> None:
    proc = hearts_serve("--port", "0", "--host", "0.0.0.0", "--data-dir", str(tmp_path))
    try:
        assert proc.stdout is not None
        urls = [proc.stdout.readline().strip() for _ in ipv4_addresses()]
        with httpx.Client(timeout=30) as c:
            for url in urls:
                assert c.get(url + "api/stats").status_code == 403, url  # our server, no token
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=30)


@pytest.mark.skipif(not ipv6_addresses(), reason="no IPv6 here")
def test_every_ipv6_interface_prints_ipv6_loopback_first(tmp_path) -> None:
    urls, err = run_until_address("--host", "::", "--data-dir", str(tmp_path))
    port = urls[0].rstrip("/").rsplit(":", 1)[1]
    assert urls[0] == f"http://[::1]:{port}/"
    assert {f"http://[{a}]:{port}/" for a in ipv6_addresses()} <= set(urls)
    assert "plain HTTP" in err


def test_seed_on_a_reachable_address_is_warned_about(tmp_path) -> None:
    _urls, err = run_until_address("--host", "0.0.0.0", "--seed", "1", "--data-dir", str(tmp_path))
    assert "warning: --seed" in err, err
    urls, err = run_until_address("--seed", "1", "--data-dir", str(tmp_path))
    assert "warning" not in err and "plain HTTP" not in err, err
    assert len(urls) == 1
