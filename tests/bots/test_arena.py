"""The arena: duplicate deals, figures and the ``hearts arena`` command."""

from __future__ import annotations

import json
from typing import ClassVar

import pytest

from hearts.bots import arena
from hearts.bots.arena import (
    Clock,
    DealOutcome,
    deal_for,
    duplicate,
    make_bot,
    parse_specs,
    play_match,
    register,
)
from hearts.cli import main
from hearts.rules import Rules
from hearts.view import PlayerView


class Recorder:
    """Plays like Vừa and records, per hand, the cards it was dealt."""

    name = "recorder"
    seen: ClassVar[list[tuple[int, int, int]]] = []  # (tag, hand_number, hand dealt)

    def __init__(self, tag: int = 0) -> None:
        from hearts.bots.medium import MediumBot

        self.tag = tag
        self.inner = MediumBot()

    def choose_pass(self, view: PlayerView) -> int:
        Recorder.seen.append((self.tag, view.hand_number, view.hand))
        return self.inner.choose_pass(view)

    def choose_play(self, view: PlayerView) -> int:
        mine = [c for s, c in view.plays if s == view.seat]
        if view.direction == "none" and not mine:
            # No pass: the cards dealt are the cards held at the first play.
            Recorder.seen.append((self.tag, view.hand_number, view.hand))
        return self.inner.choose_play(view)


def test_every_bot_plays_every_seats_cards() -> None:
    register("recorder", Recorder)
    Recorder.seen = []
    specs = [("recorder", {"tag": t}) for t in range(4)]
    result = duplicate(specs, 4, seed=3, jobs=1)
    assert result.n_deals == 4
    for index in range(4):
        hand_number = index % 4 + 1
        base = arena.deal_for(arena.Rules(), 3, index, hand_number)
        for tag in range(4):
            dealt = {h for t, k, h in Recorder.seen if t == tag and k == hand_number}
            # Each entry held each of the four seats' cards once.
            assert set(base.deal_masks) <= dealt, (index, tag)
    # All pass directions occur: hands 1..4 cycle.
    assert {k for _, k, _ in Recorder.seen} == {1, 2, 3, 4}


def test_rotation_points_are_credited_to_the_right_entry() -> None:
    d = DealOutcome(
        0,
        ((26, 0, 0, 0), (0, 0, 0, 26), (0, 13, 13, 0), (1, 2, 3, 20)),
        (-1,) * 4,
        (0,) * 4,
        (0.0,) * 4,
    )
    r = arena.ArenaResult([("easy", {})] * 4, ["easy"] * 4, 1, [d])
    assert r.per_deal[0] == (27 / 4, 15 / 4, 16 / 4, 46 / 4)


def test_identical_bots_come_out_identical() -> None:
    # Duplicate play: the same bot in every seat entry plays the same cards.
    result = duplicate(["medium"] * 4, 5, seed=4, jobs=1)
    assert all(len(set(row)) == 1 for row in result.per_deal)
    assert result.ratio_to_others(0)[0] == 1.0


def test_same_seed_same_figures_whatever_the_jobs() -> None:
    specs = ["medium", "easy", "easy", "easy"]
    one = duplicate(specs, 6, seed=9, jobs=1)
    two = duplicate(specs, 6, seed=9, jobs=2)
    assert one.per_deal == two.per_deal


def test_json_output_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "arena",
            "--bots",
            "medium,easy,easy,easy",
            "--hands",
            "3",
            "--seed",
            "2",
            "--jobs",
            "1",
            "--matches",
            "4",
            "--json",
            "--opt",
            "easy.care=0.3",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 3 and out["matches"] == 4
    assert [b["name"] for b in out["bots"]] == ["medium", "easy", "easy", "easy"]
    for i, bot in enumerate(out["bots"]):
        assert bot["seat_entry"] == i
        for key in (
            "points_per_hand",
            "ci95",
            "moons_shot",
            "moons_suffered",
            "match_win_rate",
            "ratio_to_others",
            "ratio_ci95",
        ):
            assert key in bot
        lo, hi = bot["ci95"]
        assert lo <= bot["points_per_hand"] <= hi
    assert out["bots"][1]["options"] == {"care": 0.3}
    assert sum(b["matches_won"] for b in out["bots"]) <= 4


def test_text_report_and_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "easy,easy,easy,easy", "--hands", "2", "--jobs", "1"]) == 0
    assert "Points per hand" in capsys.readouterr().out
    bad_rules = ['{"players": 5}', '{"players": 8}', '{"moon": "x"}', "not json"]
    for rules in bad_rules:  # 5 seats for 3 bots, no 8-player table, no such moon rule
        assert main(["arena", "--bots", "easy,easy,easy", "--rules", rules, "--hands", "2"]) == 2
    assert main(["arena", "--bots", "easy,easy,easy,nobody", "--hands", "2"]) == 2
    assert main(["arena", "--bots", "easy,easy,easy,easy", "--opt", "hard.x=1"]) == 2


def test_option_parsing() -> None:
    specs = parse_specs(
        "hard,medium,medium,medium", ["hard.budget_ms=300", "1.moon=false", "2.x=a"]
    )
    assert specs[0] == ("hard", {"budget_ms": 300})
    assert specs[1] == ("medium", {"moon": False})
    assert specs[2] == ("medium", {"x": "a"})
    assert specs[3] == ("medium", {})


@pytest.mark.parametrize("players", [3, 5, 7])
def test_arena_plays_every_table_size(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    """3 to 7 bots: the players follow from --bots, each rotation is played, every
    bot's clock counts its decisions (sized for any number of seats)."""
    bots = (["medium", "easy"] * 4)[:players]
    args = ["arena", "--bots", ",".join(bots), "--hands", "2", "--jobs", "1", "--json"]
    args += ["--rules", '{"jd_bonus": true, "qs_breaks_hearts": true}']
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rotations"] == players and out["hands_played"] == 2 * players
    assert all(b["ms_per_decision"] >= 0 for b in out["bots"])
    outcome = play_match(
        [make_bot(b) for b in bots],
        lambda h: deal_for(Rules(players=players, target=40), 3, h, h),
        Rules(players=players, target=40),
        Clock(),
    )
    assert outcome.winner >= 0 and len(outcome.totals) == players
