"""bench/strength.py --memory: each table remembers the hands it played before, as
a match does, and the run says where that memory opened Khó's remembered places."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import strength  # bench/ is not an installed package

from hearts.bots.medium import MediumBot
from hearts.view import PlayerView


def test_each_table_remembers_the_hands_it_played(tmp_path: Path, monkeypatch: Any) -> None:
    seen: list[int] = []  # how many earlier hands each of the hero's views held

    class Remembering(MediumBot):
        def choose_play(self, view: PlayerView) -> int:
            seen.append(len(view.earlier))
            return super().choose_play(view)

    plain = strength.get_bot
    monkeypatch.setattr(
        strength,
        "get_bot",
        lambda kind, **o: Remembering() if kind == "remembering" else plain(kind, **o),
    )
    strength._MEMORY.clear()
    hero = ("remembering", {})
    sec = strength.run_section(hero, ("medium", {}), 3, 1, "t", first=4, memory=2)
    assert sec["first"] == 4 and sec["deals"] == 3
    # Deal 4 is each table's first (nothing remembered), then one hand, then two.
    assert sorted(set(seen)) == [0, 1, 2]
    assert seen[0] == 0 and seen[-1] == 2
    # Against Vừa, whose play is the policy's habit, Khó would open its places.
    assert sec["memory_opened"][0] == 0 and sec["memory_opened"][2] == 4
    out = tmp_path / "s.json"
    out.write_text(json.dumps(sec))
    assert json.loads(out.read_text())["memory_opened"] == sec["memory_opened"]


def test_the_j_of_diamonds_and_moons_are_counted_for_whoever_took_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # At the J♦ table every hand's J♦ goes to someone: the hero's count is the
    # rotations where the hero's own seat took it, as a hand played again says; and
    # a moon counts there too, though J♦ moves the points off 0 and 26.
    rules = strength.TABLES["qsjd"]
    strength._MEMORY.clear()
    sec = strength.run_section(("medium", {}), ("easy", {}), 3, 1, "t", rules, first=13)
    moons = 0
    for index, (hero, opponents) in enumerate(sec["jd"], 13):
        assert hero + opponents == rules.players
        deal, number = strength.deal_for(index, rules)
        mine, shot = 0, [0, 0]
        for rot in range(rules.players):
            seats = [strength.Seat("easy", {}) for _ in range(rules.players)]
            seats[rot] = strength.Seat("medium", {})
            taken: list[tuple[int, int]] = []
            strength.play_deal(deal, number, seats, rules=rules, taken=taken)
            mine += taken[0][0] == rot
            if taken[0][1] >= 0:
                shot[0 if taken[0][1] == rot else 1] += 1
        assert hero == mine
        assert sec["moons"][index - 13] == shot
        moons += sum(shot)
    assert sum(h for h, _ in sec["jd"]) not in (0, 3 * rules.players)  # both sides took it
    assert moons  # Dễ feeds moons: some were shot at this table
    strength.report({"hard-medium-qsjd": sec})
    assert "J♦ taken per 100 hands: medium" in capsys.readouterr().out
