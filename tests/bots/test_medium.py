"""Vừa's habits (seeds 000 and 003) on small crafted positions."""

from __future__ import annotations

from positions_helper import craft

from hearts.bots import tactics
from hearts.bots.medium import MediumBot, pass_cards, play_card
from hearts.bots.tactics import Table
from hearts.cards import FULL_DECK, QS_BIT, card_name, mask_of, names, parse_card, parse_cards
from hearts.hand import HandState
from hearts.rules import Rules

BOT = MediumBot()


def _play(state: HandState) -> str:
    return card_name(BOT.choose_play(state.view(state.turn, hand_number=4)))


def _hand(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def test_takes_the_first_trick_with_its_highest_club() -> None:
    # Nobody may throw points on the first trick: the king is shed for free.
    state = craft({"W": "2C AC", "N": "3C", "E": "4C", "S": "5C 9C KC"}, "2C 3C 4C")
    assert _play(state) == "KC"


def test_ducks_under_the_trick_when_it_can() -> None:
    # North leads T♦, East throws a heart; South plays the highest card that loses.
    state = craft(
        {"S": "2C 3D 8D JD KD", "W": "3C", "N": "AC TD", "E": "4C 2H"}, "2C 3C AC 4C TD 2H"
    )
    assert state.turn == 0
    assert _play(state) == "8D"


def test_dumps_the_queen_when_void_in_the_suit_led() -> None:
    state = craft(
        {"S": "2C QS AH KC 7S", "W": "3C", "N": "AC 5D", "E": "4C 9D AD"},
        "2C 3C AC 4C 5D AD",
        void={"S": "D"},
    )
    # South holds no diamond.
    assert not state.hands[0] & _hand("2D 3D 4D 6D 7D 8D TD JD QD KD")
    assert _play(state) == "QS"


def test_leads_a_low_spade_to_flush_the_queen() -> None:
    state = craft({"W": "2C", "N": "3C", "E": "4C", "S": "AC 3S 8S 5D 9D 2H"}, "2C 3C 4C AC")
    assert state.turn == 0 and not state.hands[0] & QS_BIT
    card = parse_card(_play(state))
    assert card // 13 == 2 and card < parse_card("QS")


def test_takes_a_heart_to_stop_a_moon() -> None:
    # West has taken Q♠ and three hearts, every point so far, and leads 9♥.
    # Ducking with 6♥ would be the habit; South overtakes with A♥ instead.
    state = craft(
        {
            "S": "2C 3S 7D 9D TD 6H AH",
            "W": "AC KS AD KD QD 9H",
            "N": "3C QS 2H 3H 7H 4H",
            "E": "4C 2S 6D 8D 5D 5H",
        },
        "2C AC 3C 4C  KS QS 2S 3S  AD 2H 6D 7D  KD 3H 8D 9D  QD 7H 5D TD  9H 4H 5H",
    )
    assert state.turn == 0
    assert _play(state) == "AH"


def test_without_a_moon_it_ducks_the_same_heart_trick() -> None:
    # West has Q♠ and two hearts, but East took a heart too: no moon to stop, and
    # South ducks East's 9♥ with 6♥.
    state = craft(
        {
            "S": "2C 3S 7D 9D TD 6H AH",
            "W": "AC KS AD KD 5D",
            "N": "3C QS 2H 3H 7H",
            "E": "4C 2S 6D 8D QD 9H",
        },
        "2C AC 3C 4C  KS QS 2S 3S  AD 2H 6D 7D  KD 3H 8D 9D  5D 7H QD TD  9H",
    )
    assert state.turn == 0 and len(state.trick) == 1
    assert _play(state) == "6H"


def test_passes_the_queen_with_few_spades() -> None:
    hand = _hand("QS 4S 2C 5C 8C 3D 9D JD 4H 7H 8H TH 2H")
    passed = pass_cards(hand)
    assert passed & QS_BIT
    assert not passed & _hand("4S")


def test_keeps_a_well_guarded_queen_and_never_passes_low_spades() -> None:
    hand = _hand("QS 2S 3S 4S 6S 9S AC KC QC 3D 4D 2H 5H")
    passed = pass_cards(hand)
    assert not passed & _hand("QS 2S 3S 4S 6S 9S"), names(passed)


def test_passes_the_top_spades_without_low_guards() -> None:
    hand = _hand("AS KS 3C 5C 8C 3D 9D JD 4H 7H 8H TH 2H")
    passed = pass_cards(hand)
    assert passed & _hand("AS KS") == _hand("AS KS"), names(passed)


def test_pass_through_the_view_is_three_cards_of_the_hand() -> None:
    import random

    state = HandState.deal(Rules(), 1, random.Random(4))
    view = state.view(2, hand_number=1)
    passed = BOT.choose_pass(view)
    assert passed.bit_count() == 3 and not passed & ~view.hand


def test_a_moon_hand_keeps_its_high_cards() -> None:
    hand = _hand("AH KH QH JH 9H 5H AC KC AD KD 3C 4D 2S")
    passed = pass_cards(hand)
    assert not passed & _hand("AH KH QH JH 9H 5H AC KC AD KD"), names(passed)
    assert passed == _hand("3C 4D 2S")


def _table(hand: str, played: str, taken: list[str]) -> Table:
    """South to lead, hearts broken, with ``taken`` point cards won per seat."""
    mine, gone = _hand(hand), _hand(played)
    return Table(
        seat=0,
        n=4,
        hand=mine,
        legal=mine,
        trick=(),
        others=FULL_DECK & ~mine & ~gone,
        voids=[0, 0, 0, 0],
        taken=[_hand(x) for x in taken],
        known=[mine, 0, 0, 0],
        first_trick=False,
        tricks_left=mine.bit_count(),
        totals=(0, 0, 0, 0),
        target=100,
    )


def test_runs_for_the_moon_with_every_point_and_top_cards() -> None:
    # South has won Q♠ and every heart played so far and holds the top hearts:
    # it leads a sure winner to take the rest, though it holds a losing 5♠.
    played = "2C 3C 4C 5C 2S 3S 4S QS 2D 3D 4D 5D 2H 3H 4H 6C"
    hand = "AC KC AD AH KH QH JH TH 5S"
    table = _table(hand, played, ["QS 2H 3H 4H", "", "", ""])
    card = play_card(table)
    assert tactics.sure_winner(card, table.others)
    # Once another seat has a point the moon is off: it gets out with the 5♠.
    blocked = _table(hand, played, ["QS 2H 3H", "", "4H", ""])
    assert not tactics.sure_winner(play_card(blocked), blocked.others)
