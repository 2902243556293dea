"""The retention policy (docs/retention.md): a token never used for a move goes after
a day idle, any player after ``keep_days`` idle; a saved match is kept; ``hearts
prune`` and the server's own task apply it."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from hearts.cli import main
from hearts.server.app import create_app
from hearts.server.store import retention
from hearts.server.store.db import Store, analyses, hands, matches, players, token_hash

pytestmark = pytest.mark.both_databases("the retention's deletes and counts, on each database")

NOW = dt.datetime.now(dt.UTC)


@pytest.fixture
def client(fresh_db_url: str) -> Iterator[TestClient]:
    """A server whose own retention is off (the tests run it by hand)."""
    app = create_app(fresh_db_url, seed=1, executor=ThreadPoolExecutor(1), prune_every=None)
    with TestClient(app) as c:
        yield c


def idle_since(store: Store, token: str, days: float) -> None:
    with store.write() as conn:
        conn.execute(
            players.update()
            .where(players.c.token_hash == token_hash(token))
            .values(last_seen_at=NOW - dt.timedelta(days=days))
        )


def rows_of(store: Store, token: str) -> tuple[int, int, int]:
    """(players, matches, hands) rows of the token."""
    pid = store.player_id(token)
    if pid is None:
        return (0, 0, 0)
    with store.read() as conn:
        return (
            1,
            conn.execute(
                sa.select(sa.func.count()).select_from(matches).where(matches.c.player_id == pid)
            ).scalar_one(),
            conn.execute(
                sa.select(sa.func.count()).select_from(hands).where(hands.c.player_id == pid)
            ).scalar_one(),
        )


@pytest.fixture
def town(client: TestClient, new_south: Callable[..., Any]) -> dict[str, Any]:
    """Players of every kind, their idle time set in the database."""
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    made: dict[str, Any] = {}
    for name, days, moves in (
        ("looked_2_days_ago", 2, 0),  # first deal only: goes
        ("looked_2_hours_ago", 2 / 24, 0),  # stays (under a day)
        ("saved_match_300_days", 300, 1),  # a move made: stays
        ("finished_hand_401_days", 401, 99),  # idle past keep_days: goes, hands too
        ("played_yesterday", 1, 99),
    ):
        player = new_south(client)
        player.call("PUT", "/api/settings", {"level": "easy"})
        state = player.state()
        if moves == 99:
            state = player.play_hand(state)  # a finished hand is saved in hands
        elif moves:
            state = player.advance(state)
        made[name] = player
        idle_since(store, player.token, days)
    made["never_called"] = new_south(client)  # a token with no row at all
    assert rows_of(store, made["finished_hand_401_days"].token)[2] >= 1
    return made


def test_prune_removes_exactly_what_the_policy_says(client: TestClient, town: dict[str, Any]):
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    policy = retention.Policy()
    before = {name: rows_of(store, p.token) for name, p in town.items()}
    kept_state = town["saved_match_300_days"].state()

    dry = retention.prune(store, policy, dry_run=True)
    assert {name: rows_of(store, p.token) for name, p in town.items()} == before
    done = retention.prune(store, policy)
    assert (dry.unused, dry.inactive, dry.matches, dry.hands) == (
        done.unused,
        done.inactive,
        done.matches,
        done.hands,
    )
    gone = before["finished_hand_401_days"]
    assert (done.unused, done.inactive) == (1, 1)
    assert (done.matches, done.hands) == (1 + gone[1], gone[2])

    after = {name: rows_of(store, p.token) for name, p in town.items()}
    assert after == before | {
        "looked_2_days_ago": (0, 0, 0),
        "finished_hand_401_days": (0, 0, 0),
    }
    # The saved match is as it was and plays on.
    assert town["saved_match_300_days"].state() == kept_state
    town["saved_match_300_days"].advance(kept_state)
    assert retention.prune(store, policy).ids == []
    # A server that had the removed player's id at hand says 403 (the page takes a
    # new token); the token itself is still one this server issued: it starts over.
    removed = town["looked_2_days_ago"]
    removed.call("GET", "/api/state", status=403)
    assert removed.state()["version"] == 1


def test_hearts_prune_prints_what_it_removed(
    client: TestClient, town: dict[str, Any], fresh_db_url: str, capsys: Any
) -> None:
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    assert main(["prune", "--database-url", fresh_db_url, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would remove 1 never-used players" in out and "1 inactive players" in out
    assert rows_of(store, town["looked_2_days_ago"].token)[0] == 1
    assert main(["prune", "--database", fresh_db_url, "--keep-days", "250"]) == 0
    out = capsys.readouterr().out
    assert "removed 1 never-used players" in out and "2 inactive players" in out
    assert rows_of(store, town["saved_match_300_days"].token)[0] == 0
    assert rows_of(store, town["played_yesterday"].token)[0] == 1


def test_hearts_prune_finds_the_database_in_the_data_dir(tmp_path: Path, capsys: Any) -> None:
    assert main(["prune", "--data-dir", str(tmp_path)]) == 1  # nothing there: not made
    assert not (tmp_path / "hearts.db").exists()
    Store(f"sqlite:///{tmp_path / 'hearts.db'}").close()
    assert main(["prune", "--data-dir", str(tmp_path)]) == 0
    assert "removed 0 never-used players" in capsys.readouterr().out


def test_the_server_prunes_by_itself(fresh_db_url: str, new_south: Callable[..., Any]) -> None:
    app = create_app(fresh_db_url, executor=ThreadPoolExecutor(1), prune_every=None)
    with TestClient(app) as c:
        old, recent = new_south(c), new_south(c)
        old.state(), recent.state()
        idle_since(c.app.state.tables.store, old.token, 2)  # type: ignore[attr-defined]
    app = create_app(fresh_db_url, executor=ThreadPoolExecutor(1), prune_every=0.2)
    with TestClient(app) as c:
        store = c.app.state.tables.store  # type: ignore[attr-defined]
        deadline = time.monotonic() + 20
        while store.player_id(old.token) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.player_id(old.token) is None
        assert store.player_id(recent.token) is not None


def test_an_analysis_goes_with_its_player(client: TestClient, new_south: Callable[..., Any]):
    """Phân tích's rows (table analyses) go with the match they analysed: removed
    with an inactive player, kept with a kept one."""
    tables = client.app.state.tables  # type: ignore[attr-defined]
    client.app.state.coach.analysis_iterations = 48  # type: ignore[attr-defined]
    players_ = {"kept": new_south(client), "gone": new_south(client)}
    for player in players_.values():
        player.call("PUT", "/api/settings", {"level": "easy"})
        player.play_hand(player.state())
        player.call("POST", "/api/analysis", {"hand": 1})
        deadline = time.monotonic() + 60  # liveness only
        while player.call("GET", "/api/analysis/1")["status"] == "running":
            assert time.monotonic() < deadline, "the analysis never finished"
            time.sleep(0.05)
    ids = {name: tables.store.player_id(p.token) for name, p in players_.items()}
    idle_since(tables.store, players_["gone"].token, 401)

    def analysed(pid: int) -> int:
        with tables.store.read() as conn:
            return int(
                conn.execute(
                    sa.select(sa.func.count())
                    .select_from(analyses)
                    .where(analyses.c.player_id == pid)
                ).scalar_one()
            )

    assert analysed(ids["gone"]) == analysed(ids["kept"]) == 1
    done = retention.prune(tables.store, retention.Policy())
    assert done.ids == [ids["gone"]]
    assert analysed(ids["gone"]) == 0 and analysed(ids["kept"]) == 1
    assert players_["kept"].call("GET", "/api/analysis/1")["status"] == "done"
