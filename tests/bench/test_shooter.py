"""bench/shooter.py: the second moon shooter of issue 38 is a real, rule-built one."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

# bench/ is not an installed package
import moons
import shooter
from strength import Seat, deal_for, moon_shooter, play_deal

from hearts.bots.medium import pass_cards
from hearts.bots.tactics import Table
from hearts.cards import FULL_DECK, mask_of, names, parse_cards


def _hand(*cards: str) -> int:
    return mask_of(parse_cards(cards))


def _table(hand: int, trick: tuple[tuple[int, int], ...], legal: int) -> Table:
    """Seat 0 with ``hand`` on trick 2 or later, nobody with a point yet."""
    others = FULL_DECK & ~hand & ~mask_of(c for _, c in trick)
    return Table(
        seat=0, n=4, hand=hand, legal=legal, trick=trick, others=others, voids=[0] * 4,
        taken=[0] * 4, known=[0] * 4, first_trick=False, tricks_left=hand.bit_count(),
        totals=[0] * 4, target=100,
    )  # fmt: skip


def test_its_own_moon_hand_passes_low_side_cards_where_vua_would_not() -> None:
    # No A♥ (not Vừa's moon hand), but weight 21 with K♥ Q♥ and length.
    hand = _hand("KH", "QH", "5H", "4H", "AS", "KS", "AD", "KD", "QD", "AC", "KC", "3C", "2D")
    assert shooter.shooter_hand(hand)
    passed = names(shooter.ShooterBot().choose_pass(_pass_view(hand)))
    assert sorted(passed) == ["2D", "3C", "QD"]  # the lowest side cards; hearts kept
    assert passed != names(pass_cards(hand))


def _pass_view(hand: int) -> object:
    from hearts.hand import HandState
    from hearts.rules import Rules

    rules = Rules()
    rest = [c for c in range(52) if not hand >> c & 1]
    masks = [hand, mask_of(rest[:13]), mask_of(rest[13:26]), mask_of(rest[26:])]
    return HandState(rules, masks, rules.pass_direction(1)).view(0, hand_number=1)


def test_running_it_wins_what_it_can_and_keeps_its_high_cards_otherwise() -> None:
    hand = _hand("AS", "KS", "5S", "AH", "KH", "AD")
    spades = _hand("AS", "KS", "5S")
    # A pointless trick it cannot win: its lowest spade, the top ones kept.
    assert shooter._run(_table(hand, ((1, parse_cards(["3S"])[0]),), spades)) >= 0
    led_2 = ((1, parse_cards(["2S"])[0]), (2, parse_cards(["TS"])[0]))
    assert names(1 << shooter._run(_table(hand, led_2, spades))) == ["AS"]  # not last: highest
    last = (*led_2, (3, parse_cards(["JS"])[0]))
    assert names(1 << shooter._run(_table(hand, last, spades))) == ["KS"]  # last: the lowest over
    # A trick with a point it cannot win: the run is over, Vừa plays (-1).
    clubs = ((1, parse_cards(["AC"])[0]), (2, parse_cards(["2H"])[0]))
    assert shooter._run(_table(hand, clubs, hand & ~_hand("AH", "KH"))) == -1


def _moons(opponent: Seat, deals: int) -> int:
    hero = Seat("easy", {})
    count = 0
    for index in range(deals):
        deal, number = deal_for(index)
        for rot in range(4):
            seats = [opponent] * 4
            seats[rot] = hero
            s = moon_shooter(play_deal(deal, number, seats))
            count += s >= 0 and s != rot
    return count


def test_three_of_it_shoot_more_moons_than_three_vua_on_the_same_deals() -> None:
    mine = _moons(moons.opponent(dict(moons.SHOOTER)), 40)
    vua = _moons(Seat("medium", {}), 40)
    assert mine >= 2 * vua, (mine, vua)  # 38 against 16


def test_its_runs_pair_only_with_its_own(tmp_path: Path) -> None:
    out = tmp_path / "shooter.json"
    argv = ["--against", "shooter", "--hands", "1", "--first", "3", "--hero", "medium"]
    assert moons.main([*argv, "--out", str(out)]) == 0
    saved = json.loads(out.read_text())
    assert saved["hungry"]["shooter"] == "rule"
    hungry = tmp_path / "hungry.json"
    hungry.write_text(
        json.dumps({"hungry": {"shoot": 40.0}, "first": 0, "heroes": {"medium": {"rows": []}}})
    )
    with pytest.raises(SystemExit, match="other moon-hungry players"):
        moons.main(["--load", str(out), str(hungry)])
