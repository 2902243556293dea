"""Fairness: a bot's choice depends only on what its seat knows (SPEC §3).

For positions of every phase, the cards hidden from the deciding seat are dealt
again from its view alone (``redeal``: never retried until the view happens to
match); the view must come out equal, as a check of its own, and every level must
choose the same pass or card.  Khó is tested at its default budget on a position
from every trick and every pass direction.
"""

from __future__ import annotations

import random

import pytest
from redeal import hidden_differs, positions, redeal

from hearts.bots.base import Bot, get_bot
from hearts.cards import card_name, cards_of
from hearts.fairness import HandSeeds, derived_seed
from hearts.hand import HandState
from hearts.rules import Rules

LEVELS = [
    ("easy", {}, 240, 3),
    ("medium", {}, 240, 3),
    ("hard", {"iterations": 24}, 20, 2),
    # Deals weighed by the others' plays (lever 2b): the weights read the view only.
    ("hard", {"iterations": 24, "mismatch": 0.1}, 20, 2),
]
TOTALS = (12, 40, 7, 88)


def _choose(bot: Bot, state: HandState, seat: int, hand_number: int) -> int:
    view = state.view(seat, hand_number=hand_number, totals=TOTALS)
    return bot.choose_pass(view) if view.phase == "pass" else bot.choose_play(view)


@pytest.mark.parametrize(("level", "options", "count", "redeals"), LEVELS)
def test_choice_is_blind_to_the_hidden_cards(
    level: str, options: dict[str, object], count: int, redeals: int
) -> None:
    bot = get_bot(level, **options)
    mentors = [get_bot("medium"), get_bot("easy"), get_bot("medium"), get_bot("easy")]
    rng = random.Random(f"fairness-{level}")
    phases_seen = set()
    changed = 0
    for i, (state, seat, hand_number) in enumerate(positions(count, seed=11, players=mentors)):
        phases_seen.add((state.phase, len(state.plays) // 16))
        want = _choose(bot, state, seat, hand_number)
        for _ in range(redeals):
            other = redeal(state, seat, rng)
            changed += hidden_differs(state, other, seat)
            assert other.view(seat) == state.view(seat), (
                f"position {i}: the view shows hidden cards"
            )
            got = _choose(bot, other, seat, hand_number)
            assert got == want, f"position {i}: {level} changed its choice when re-dealt"
    # The re-deals really moved hidden cards, in positions of every phase.
    assert changed >= count * redeals // 2
    assert {p for p, _ in phases_seen} == {"pass", "play"}


def test_redeal_keeps_the_view_and_moves_hidden_cards() -> None:
    rng = random.Random(3)
    moved = 0
    for state, seat, hand_number in positions(60, seed=5):
        other = redeal(state, seat, rng)
        assert other.view(seat, hand_number=hand_number) == state.view(
            seat, hand_number=hand_number
        )
        assert other.hands[seat] == state.hands[seat]
        moved += hidden_differs(state, other, seat)
    assert moved >= 50


def _khó_positions() -> list[tuple[HandState, int, int]]:
    """A position in every trick (0–12) and in the pass of every direction, hands
    played by Vừa and Dễ, every pass direction among the play positions too."""
    mentors = [get_bot("medium"), get_bot("easy"), get_bot("medium"), get_bot("easy")]
    rng = random.Random("fairness-hard-default")
    out = []
    for hand_number in (1, 2, 3):  # left, right, across
        state = HandState.deal(Rules(), hand_number, rng)
        for s in range(2):
            state.pass_cards(s, mentors[s].choose_pass(state.view(s, hand_number=hand_number)))
        out.append((state, 2, hand_number))
    for trick in range(13):
        hand_number = 1 + trick % 4  # every direction, "none" included
        state = HandState.deal(Rules(), hand_number, rng)
        if state.phase == "pass":
            for s in range(4):
                view = state.view(s, hand_number=hand_number)
                state.pass_cards(s, mentors[s].choose_pass(view))
        stop = trick * 4 + rng.randrange(4)
        while len(state.plays) < stop:
            seat = state.turn
            state.play(mentors[seat].choose_play(state.view(seat, hand_number=hand_number)))
        out.append((state, state.turn, hand_number))
    return out


@pytest.mark.slow
def test_hard_at_its_default_budget_is_blind_to_the_hidden_cards() -> None:
    bot = get_bot("hard")  # the default budget: what players meet
    rng = random.Random(17)
    moved = 0
    cases = _khó_positions()
    for i, (state, seat, hand_number) in enumerate(cases):
        want = _choose(bot, state, seat, hand_number)
        other = redeal(state, seat, rng)
        moved += hidden_differs(state, other, seat)  # late in a hand, maybe nothing can move
        assert other.view(seat) == state.view(seat)
        assert _choose(bot, other, seat, hand_number) == want, f"position {i}: Khó changed"
    assert moved >= len(cases) - 3


def test_the_hint_is_blind_to_the_hidden_cards() -> None:
    """Gợi ý (hearts.server.coach.hint) at the budget players get: its card or pass, the
    estimates and the reasons stay the same when the hidden cards are re-dealt."""
    from hearts.server.coach.hint import hint

    names = {0: "Bạn", 1: "Tây", 2: "Bắc", 3: "Đông"}
    rng = random.Random(23)
    moved = 0
    cases = _khó_positions()[::3]  # a pass and plays from early to late tricks
    assert {state.phase for state, _, _ in cases} == {"pass", "play"}
    for i, (state, seat, hand_number) in enumerate(cases):
        view = state.view(seat, hand_number=hand_number, totals=TOTALS)
        want = hint(view, names)
        other = redeal(state, seat, rng)
        moved += hidden_differs(state, other, seat)
        again = other.view(seat, hand_number=hand_number, totals=TOTALS)
        assert again == view
        assert hint(again, names) == want, f"position {i}: the hint changed when re-dealt"
    assert moved >= len(cases) - 1


def test_the_analysis_is_blind_to_the_hidden_cards() -> None:
    """Phân tích (hearts.server.coach.analysis) weighs a decision from the deciding seat's
    view alone: Khó's choice, South's, the costs stay the same when the hidden cards
    are re-dealt (a small budget: the search is the same at any)."""
    from hearts.hand import PASS
    from hearts.server.coach.analysis import weigh

    rng = random.Random(29)
    moved = differs = 0
    cases = _khó_positions()[::2]
    assert {state.phase for state, _, _ in cases} == {"pass", "play"}
    for i, (state, seat, hand_number) in enumerate(cases):
        view = state.view(seat, hand_number=hand_number, totals=TOTALS)
        # a choice Khó would not make: the highest cards
        count = state.rules.pass_count if view.phase == PASS else 1
        chosen = sum(1 << c for c in sorted(cards_of(view.legal), key=lambda c: c % 13)[-count:])
        chosen = chosen if view.phase == PASS else chosen.bit_length() - 1
        want = weigh(view, chosen, 160)
        differs += want is not None
        other = redeal(state, seat, rng)
        moved += hidden_differs(state, other, seat)
        again = other.view(seat, hand_number=hand_number, totals=TOTALS)
        assert again == view
        assert weigh(again, chosen, 160) == want, f"position {i}: the analysis changed"
    assert moved >= len(cases) - 1 and differs >= len(cases) // 2


def test_the_analysis_rebuilds_south_s_own_views_from_the_record() -> None:
    """The views the analysis weighs, rebuilt from a finished hand's record, are
    exactly the views South had at its decisions (nothing more is in them)."""
    from hearts.record import write_record
    from hearts.server.coach.analysis import decisions

    players = [get_bot("medium"), get_bot("easy"), get_bot("medium"), get_bot("easy")]
    rng = random.Random(31)
    for hand_number in (1, 4):  # a pass, and none
        state = HandState.deal(Rules(), hand_number, rng)
        seen = []
        if state.phase == "pass":
            seen.append(state.view(0, hand_number=hand_number, totals=TOTALS))
            for s in range(4):
                state.pass_cards(s, players[s].choose_pass(state.view(s, hand_number=hand_number)))
        while not state.is_terminal():
            seat = state.turn
            view = state.view(seat, hand_number=hand_number, totals=TOTALS)
            if seat == 0:
                seen.append(view)
            state.play(players[seat].choose_play(view))
        steps = decisions(write_record(state, hand_number), TOTALS)
        assert [s.view for s in steps] == seen
        assert [s.chosen for s in steps if s.kind == "play"] == [
            c for i, c in enumerate(state.plays) if state.seat_of_play(i) == 0
        ]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_take_back_and_the_same_card_bring_the_same_replies(level: str) -> None:
    """Đi lại (hearts.server.table.game): taking back South's card restores the hand
    exactly, and the computers, deciding from their views alone, answer the same
    card again with the same cards."""
    from hearts.server.table.computers import decide
    from hearts.server.table.game import Game

    def replies(game: Game) -> list[int]:
        hand = game.hand
        start = len(hand.plays)
        while not game.over and hand.phase != "done" and hand.turn != 0:
            job = game.computer_job()
            game.apply_computer(job, decide(level, job))
        return hand.plays[start:]

    def snapshot(game: Game) -> tuple[object, ...]:
        h = game.hand
        return (h.plays[:], h.hands[:], h.trick[:], h.taken[:], h.winners[:], h.broken, h.turn)

    game = Game.new(Rules(), 1, HandSeeds(derived_seed(7, level)))
    south = get_bot("medium")
    hand = game.hand
    game.south_pass([card_name(c) for c in cards_of(south.choose_pass(game.south_view()))])
    job = game.computer_job()
    game.apply_computer(job, decide(level, job))
    replies(game)
    checked = 0
    most = 3 if level == "hard" else 13  # Khó at the budget players meet: a few
    while hand.phase == "play" and hand.turn == 0 and checked < most:
        before = snapshot(game)
        card = card_name(max(cards_of(game.south_view().legal), key=lambda c: c % 13))
        game.south_play(card)
        first = replies(game)
        if hand.phase == "done":
            break
        game.south_take_back()
        assert snapshot(game) == before
        game.south_play(card)
        assert replies(game) == first
        checked += 1
        game.south_play(card_name(south.choose_play(game.south_view())))
        game.south_take_back()  # and the card chosen afterwards may be another
        game.south_play(card_name(south.choose_play(game.south_view())))
        replies(game)
    assert checked >= min(most, 5) and game.take_backs == 2 * checked
