"""Every forbidden action raises ``IllegalAction`` with its code, a message that
names the rule, and leaves every field of the state exactly as it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from engine_positions import E, N, S, W, c, hand_of, m, play, play_out, snapshot

from hearts.cards import cards_of, mask_of
from hearts.hand import HandState
from hearts.legal import IllegalAction
from hearts.rules import Rules

ROUND_ROBIN = (
    "2C 6C TC AC 5D 9D KD 4S 8S QS 3H 7H JH",
    "3C 7C JC 2D 6D TD AD 5S 9S KS 4H 8H QH",
    "4C 8C QC 3D 7D JD 2S 6S TS AS 5H 9H KH",
    "5C 9C KC 4D 8D QD 3S 7S JS 2H 6H TH AH",
)
SUITS = ("2C-AC", "2D-AD", "2S-AS", "2H-AH")
POINTS_ONLY = ("2C-AC", "QS 2H-KH", "2D-KD AH", "AD 2S-JS KS AS")


def refused(state: HandState, action: Callable[[], object], code: str, words: str) -> None:
    """``action`` raises ``code``, its message contains ``words``, the state is unchanged."""
    before = snapshot(state)
    legal = state.legal_mask()
    with pytest.raises(IllegalAction) as info:
        action()
    assert info.value.code == code
    assert words in str(info.value)
    assert snapshot(state) == before
    assert state.legal_mask() == legal


def in_play(direction: str = "none") -> HandState:
    """Round robin, after trick 1 (2♣ 3♣ 4♣ 5♣): East leads, hearts unbroken."""
    state = hand_of(ROUND_ROBIN, direction)
    play(state, "2C 3C 4C 5C")
    return state


# -- playing -------------------------------------------------------------------------------
def test_card_not_in_hand() -> None:
    state = in_play()
    refused(state, lambda: state.play(c("AC")), "not_in_hand", "AC")  # South holds it
    refused(state, lambda: state.play(c("2C")), "not_in_hand", "2C")  # already played


@pytest.mark.parametrize("card", [-1, 52, 1000])
def test_card_that_does_not_exist(card: int) -> None:
    state = in_play()
    refused(state, lambda: state.play(card), "not_in_hand", "not a card")


def test_card_removed_from_a_five_player_deck() -> None:
    rules = Rules(players=5)
    deck = list(cards_of(rules.deck))
    state = HandState(rules, [mask_of(deck[i::5]) for i in range(5)], "none")
    refused(state, lambda: state.play(c("2C")), "not_in_hand", "2C")


def test_out_of_turn() -> None:
    state = in_play()
    assert state.turn == E
    refused(state, lambda: state.play(c("6C"), seat=S), "not_your_turn", "turn")
    refused(state, lambda: state.play(c("9C"), seat=W), "not_your_turn", "turn")


def test_off_suit_when_able_to_follow() -> None:
    state = in_play()
    play(state, "9C")  # East leads a club; South holds 6♣ T♣ A♣
    refused(state, lambda: state.play(c("5D")), "must_follow_suit", "follow suit")
    refused(state, lambda: state.play(c("3H")), "must_follow_suit", "follow suit")


def test_hearts_led_before_broken() -> None:
    state = in_play()
    refused(state, lambda: state.play(c("2H")), "hearts_not_broken", "hearts")


def test_heart_on_the_first_trick() -> None:
    state = hand_of(POINTS_ONLY)
    play(state, "2C QS")
    refused(state, lambda: state.play(c("AH")), "first_trick_points", "first trick")


def test_queen_of_spades_on_the_first_trick() -> None:
    state = hand_of(SUITS)
    play(state, "2C 2D")
    refused(state, lambda: state.play(c("QS")), "first_trick_points", "Q♠")


def test_first_lead_other_than_two_of_clubs() -> None:
    state = hand_of(ROUND_ROBIN)
    refused(state, lambda: state.play(c("AC")), "must_lead_lead_card", "2C")


# -- passing -------------------------------------------------------------------------------
@pytest.mark.parametrize("cards", ["QS AC", "QS AC KD 2C", "", "QS"])
def test_pass_of_the_wrong_number_of_cards(cards: str) -> None:
    state = hand_of(ROUND_ROBIN, "left")
    refused(state, lambda: state.pass_cards(S, m(cards)), "bad_pass", "3")


def test_pass_of_cards_not_held() -> None:
    state = hand_of(ROUND_ROBIN, "left")
    refused(state, lambda: state.pass_cards(S, m("QS AC 3C")), "bad_pass", "hand")


def test_pass_of_a_negative_mask() -> None:
    state = hand_of(ROUND_ROBIN, "left")
    with pytest.raises(IllegalAction) as info:
        state.pass_cards(S, -7)  # three bits set in its magnitude, but not a set of cards
    assert info.value.code == "bad_pass"


def test_passing_twice() -> None:
    state = hand_of(ROUND_ROBIN, "left")
    state.pass_cards(S, m("QS AC KD"))
    refused(state, lambda: state.pass_cards(S, m("2C 6C TC")), "wrong_phase", "already passed")


def test_pass_by_a_seat_that_does_not_exist() -> None:
    state = hand_of(ROUND_ROBIN, "left")
    refused(state, lambda: state.pass_cards(4, m("QS AC KD")), "bad_pass", "seat")


def test_a_refused_pass_keeps_the_other_passes() -> None:
    state = hand_of(ROUND_ROBIN, "left")
    state.pass_cards(W, m("AD KS QH"))
    refused(state, lambda: state.pass_cards(S, m("QS AC")), "bad_pass", "3")
    assert state.passes[W] == m("AD KS QH")


# -- the wrong phase -------------------------------------------------------------------------
def test_play_during_the_pass() -> None:
    state = hand_of(ROUND_ROBIN, "left")
    refused(state, lambda: state.play(c("2C")), "wrong_phase", "pass")
    assert state.legal_mask() == 0


def test_pass_during_play() -> None:
    state = hand_of(ROUND_ROBIN, "none")
    refused(state, lambda: state.pass_cards(S, m("QS AC KD")), "wrong_phase", "play")
    passed = hand_of(ROUND_ROBIN, "left")
    for seat, cards in ((S, "QS AC KD"), (W, "AD KS QH"), (N, "AS KH QC"), (E, "AH QD JS")):
        passed.pass_cards(seat, m(cards))
    refused(passed, lambda: passed.pass_cards(S, m("2C 6C TC")), "wrong_phase", "play")


def test_play_after_the_hand_is_over() -> None:
    state = hand_of(SUITS)
    play_out(state)
    refused(state, lambda: state.play(c("2C")), "wrong_phase", "done")
    assert state.legal_mask() == 0


def test_why_illegal_names_the_rule_without_raising() -> None:
    state = in_play()
    err = state.why_illegal(c("2H"))
    assert err is not None and err.code == "hearts_not_broken"
    assert state.why_illegal(c("9C")) is None


def test_the_state_still_plays_after_a_refusal() -> None:
    state = in_play()
    refused(state, lambda: state.play(c("2H")), "hearts_not_broken", "hearts")
    play(state, "9C TC JC QC")
    assert state.winners[-1] == N
