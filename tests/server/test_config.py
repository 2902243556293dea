"""One configuration: every setting on the command line and in the environment under
the same name, the command line winning, documented in docs/config.md, and read by
``create_app()`` when it is started by an import string (uvicorn --factory)."""

from __future__ import annotations

import ipaddress
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from hearts.cli import build_parser
from hearts.server.app import create_app
from hearts.server.config import SETTINGS, Config, ConfigError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "config.md"


def serve_config(argv: list[str], env: dict[str, str]) -> Config:
    return Config.from_args(build_parser().parse_args(["serve", *argv]), env)


def test_defaults_are_sqlite_in_the_data_dir_on_loopback(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    config = serve_config([], {})
    assert (config.host, config.port, config.workers, config.seed) == ("127.0.0.1", 8000, 1, None)
    resolved = config.resolved()
    assert resolved.database_url == f"sqlite:///{tmp_path / 'hearts' / 'hearts.db'}"
    assert (tmp_path / "hearts").is_dir()


def test_environment_then_command_line_which_wins() -> None:
    env = {
        "HEARTS_DATABASE_URL": "postgresql+psycopg://u@h/env",
        "HEARTS_PORT": "9000",
        "HEARTS_WORKERS": "3",
        "HEARTS_SEED": "5",
        "HEARTS_TRUSTED_PROXY": "10.0.0.0/8, 127.0.0.1",
    }
    config = serve_config([], env)
    assert config.database_url == "postgresql+psycopg://u@h/env"
    assert (config.port, config.workers, config.seed) == (9000, 3, 5)
    assert config.trusted_proxy == (
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("127.0.0.1/32"),
    )
    config = serve_config(["--database-url", "sqlite:///cli.db", "--port", "0", "--seed", "7"], env)
    assert (config.database_url, config.port, config.seed, config.workers) == (
        "sqlite:///cli.db",
        0,
        7,
        3,
    )
    # the old spelling still works
    assert serve_config(["--database", "sqlite:///old.db"], env).database_url == "sqlite:///old.db"


def test_every_setting_has_both_spellings_and_is_documented() -> None:
    page = DOCS.read_text(encoding="utf-8")
    parser_help = build_parser()._subparsers._group_actions[0].choices["serve"].format_help()  # type: ignore[union-attr]
    for s in SETTINGS:
        assert s.env == "HEARTS_" + s.flag[2:].replace("-", "_").upper()
        assert f"`{s.flag}" in page and f"`{s.env}`" in page, s.field
        assert s.flag in parser_help and s.env in parser_help, s.field


def test_settings_survive_the_trip_through_the_environment() -> None:
    config = Config(
        host="::",
        port=0,
        database_url="sqlite:///x.db",
        workers=2,
        bot_processes=3,
        seed=-4,
        trusted_proxy=(ipaddress.ip_network("192.168.0.0/16"),),
        new_player_burst=5,
        new_player_interval=2.5,
        sqlite_synchronous="NORMAL",
    )
    assert Config.from_env(config.to_env()) == config


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("HEARTS_PORT", "eighty"),
        ("HEARTS_PORT", "70000"),
        ("HEARTS_WORKERS", "0"),
        ("HEARTS_TRUSTED_PROXY", "10.0.0.0/8,proxy.example"),
        ("HEARTS_NEW_PLAYER_INTERVAL", "-1"),
        ("HEARTS_SQLITE_SYNCHRONOUS", "OFF"),
        ("HEARTS_ANALYSIS_STALE", "0"),
    ],
)
def test_a_bad_value_names_its_setting(name, value) -> None:
    with pytest.raises(ConfigError, match=name):
        Config.from_env({name: value})


def test_khos_processes_are_shared_out_among_the_workers() -> None:
    assert Config(workers=2, bot_processes=4).bot_pool_size() == 2
    assert Config(workers=4, bot_processes=2).bot_pool_size() == 1
    assert Config(workers=1, bot_processes=3).bot_pool_size() == 3


def test_create_app_with_no_arguments_serves_the_configured_database(tmp_path, monkeypatch) -> None:
    """uvicorn hearts.server.app:create_app --factory: the database of the settings,
    not a private in-memory one (two such apps see the same players)."""
    monkeypatch.setenv("HEARTS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("HEARTS_DATABASE_URL", raising=False)
    with TestClient(create_app(executor=ThreadPoolExecutor(1))) as one:
        token = one.post("/api/players").json()["token"]
        assert one.get("/api/state", headers={"Authorization": f"Bearer {token}"}).is_success
    assert (tmp_path / "data" / "hearts.db").is_file()
    with TestClient(create_app(executor=ThreadPoolExecutor(1))) as other:
        state = other.get("/api/state", headers={"Authorization": f"Bearer {token}"})
        assert state.status_code == 200 and state.json()["version"] == 1


def test_an_explicit_database_ignores_the_environment(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HEARTS_DATA_DIR", str(tmp_path / "env"))
    monkeypatch.setenv("HEARTS_SEED", "not a number")  # not read at all
    app = create_app(f"sqlite:///{tmp_path / 'mine.db'}", executor=ThreadPoolExecutor(1))
    assert app.state.tables.store.url == f"sqlite:///{tmp_path / 'mine.db'}"
    assert not (tmp_path / "env").exists()
