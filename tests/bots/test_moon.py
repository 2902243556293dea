"""Moon defence: Khó sees a live moon and imagines the runner holding the hearts
it needs (hearts.bots.moon)."""

from __future__ import annotations

import random

from positions_helper import craft

from hearts.bots import kernel
from hearts.bots.hard import HardBot
from hearts.bots.moon import live_moon, moon_sampler, runs_for_the_moon
from hearts.bots.sampling import DealSampler, MixtureSampler, deal_tables
from hearts.cards import parse_card
from hearts.view import PlayerView

# West takes Q♠ and two hearts (15 points, alone): a moon is live when South,
# holding no high heart, is to play to West's fifth lead.
HANDS = {
    "S": "2C 3S 3D 5D 7D 2H",
    "W": "AC AS AD KD QD",
    "N": "3C QS 9H TH JH",
    "E": "4C 2S 2D 4D 6D",
}
PLAYS = "2C AC 3C 4C  AS QS 2S 3S  AD 9H 2D 3D  KD TH 4D 5D  QD JH 6D"


def _view(plays: str = PLAYS) -> PlayerView:
    return craft(HANDS, plays, void={"N": "D"}).view(0)


def test_a_seat_alone_with_queen_and_two_hearts_runs() -> None:
    view = _view()
    assert view.turn == 0
    assert runs_for_the_moon(15) and runs_for_the_moon(4) and not runs_for_the_moon(13)
    assert live_moon(view) == 1  # West


def test_queen_and_a_heart_lead_is_a_live_moon() -> None:
    # West took Q♠ and one heart (14) and leads A♥: running.
    view = _view("2C AC 3C 4C  AS QS 2S 3S  AD 9H 2D 3D  AH")
    assert view.points_taken()[1] == 14
    assert live_moon(view) == 1


def test_no_moon_before_the_seat_runs() -> None:
    assert live_moon(_view("2C AC 3C 4C  AS QS 2S 3S")) == -1  # Q♠ alone
    assert live_moon(_view("2C AC 3C 4C")) == -1  # no points yet


TOPS = (1 << parse_card("AH")) | (1 << parse_card("KH"))


def _draws(sampler: MixtureSampler, n: int = 400) -> list[list[int]]:
    """``n`` deals drawn by ``sampler`` as the search draws them (tables built once)."""
    tables = deal_tables(sampler)
    return [kernel.draw_deal(tables, 7, w) for w in range(n)]


def test_half_the_deals_give_the_runner_the_high_hearts() -> None:
    view = _view()
    base = DealSampler(view)
    sampler = moon_sampler(view, base)
    assert isinstance(sampler, MixtureSampler)
    draws = _draws(sampler)
    with_tops = sum(d[1] & TOPS == TOPS for d in draws)
    uniform = sum(d[1] & TOPS == TOPS for d in (base.draw(random.Random(w)) for w in range(400)))
    assert with_tops > 200 > 4 * uniform
    assert all(d[0] == view.hand for d in draws)


def test_queen_alone_is_a_live_moon_only_when_asked() -> None:
    # West took Q♠ alone (13): not running by default; with queen=True it is, and
    # half the deals give West the high hearts.
    view = _view("2C AC 3C 4C  AS QS 2S 3S")
    assert view.points_taken()[1] == 13
    assert live_moon(view) == -1 and live_moon(view, queen=True) == 1
    assert live_moon(_view("2C AC 3C 4C"), queen=True) == -1  # no points yet
    assert not isinstance(moon_sampler(view, DealSampler(view)), MixtureSampler)
    sampler = moon_sampler(view, DealSampler(view), queen=True)
    assert isinstance(sampler, MixtureSampler)
    assert sum(d[1] & TOPS == TOPS for d in _draws(sampler)) > 200


def test_hard_moon_queen_changes_the_search_only_with_queen_alone() -> None:
    def values(view: PlayerView, **options: bool) -> dict[int, float]:
        return HardBot(iterations=300, **options).weigh_play(view).value

    # South to follow West's K♦ lead while West holds Q♠ and 9♥ (14) alone.
    queen = craft(HANDS, "2C AC 3C 4C  AS QS 2S 3S  AD 9H 2D 3D  KD TH 4D", void={"N": "D"})
    view = queen.view(0)
    assert view.turn == 0 and view.points_taken()[1] == 14
    assert values(view, moon_queen=True) != values(view)
    # No seat alone with points: the option changes nothing.
    quiet = craft(HANDS, "2C AC 3C 4C", void={"N": "D"})
    early = quiet.view(quiet.turn)
    assert values(early, moon_queen=True) == values(early)
