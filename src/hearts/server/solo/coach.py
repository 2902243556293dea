"""Gợi ý (the hint): Khó's own choice for South, with why, from South's view only.

:func:`hint` runs in the bot workers like Khó's decisions.  It reads Khó's search
(:meth:`HardBot.weigh_play`, :meth:`HardBot.weigh_pass`), so the hinted card is
the card Khó would play, and it is deterministic for a view (the search is seeded
from it): the hidden cards cannot change it.
"""

from __future__ import annotations

import threading
from typing import Any

from hearts.bots.hard import HardBot, Weighing
from hearts.cards import HEARTS, QS_BIT, QUEEN_SPADES, SPADES, SUIT_MASKS, card_name, cards_of
from hearts.server.i18n import lang, messages_en
from hearts.server.i18n.messages import SUITS_VI
from hearts.view import PlayerView

_SYMBOLS = "♣♦♠♥"
_SUITS = {"vi": SUITS_VI, "en": messages_en.SUITS}
#: The reasons' lines, by language.
_SAY: dict[str, dict[str, str]] = {
    "vi": {
        "only": "Đây là lá duy nhất bạn được đánh.",
        "void": "Bạn đã hết {suit}: được bỏ lá khác, {card} là lá nên bỏ.",
        "drop_queen": "Thả đầm bích khi người khác phải ăn vòng này.",
        "shed_high": "Đầm bích vẫn chưa ra: bớt {card} đi để khỏi phải ăn đầm.",
        "hold_high": "Đầm bích vẫn chưa ra mà bạn còn giữ {held}: coi chừng phải ăn đầm.",
        "and": " và ",
        "my_moon": "Bạn đã ăn cả {n} điểm của ván: có thể bắn trăng.",
        "their_moon": "{name} đã ăn cả {n} điểm của ván: coi chừng bắn trăng.",
        "near": "Trận sắp kết thúc: Khó chọn theo cơ hội thắng trận, không chỉ theo điểm.",
        "few_low": "Bạn chỉ có {low} lá bích nhỏ hơn Q: {cards} dễ dính đầm bích.",
        "cover": "Bạn có {low} lá bích nhỏ che đầm bích: giữ lại.",
        "void_pass": "Chuyền hết {suit}: bạn sẽ được bỏ bài xấu khi ai đi {suit}.",
        "high_hearts": "{cards} là cơ cao, dễ phải ăn điểm.",
        "mean": "trung bình ",
        "points": "điểm",
    },
    "en": {
        "only": "This is the only card you may play.",
        "void": "You have no {suit} left: you may discard, and {card} is the card to shed.",
        "drop_queen": "Drop the queen of spades while someone else must take this trick.",
        "shed_high": "The queen of spades is still out: shed {card} so you do not take her.",
        "hold_high": "The queen of spades is still out and you hold {held}: beware of taking her.",
        "and": " and ",
        "my_moon": "You have taken all {n} points of the hand: you may shoot the moon.",
        "their_moon": "{name} has taken all {n} points of the hand: beware of a moon.",
        "near": "The match is nearly over: Hard weighs the chance to win, not only points.",
        "few_low": "You have only {low} spades below the Q: {cards} may catch the queen.",
        "cover": "You have {low} low spades to cover the queen of spades: keep them.",
        "void_pass": "Pass all your {suit}: you can shed bad cards when {suit} are led.",
        "high_hearts": "{cards}: high hearts, likely to take points.",
        "mean": "mean ",
        "points": "points",
    },
}


def _say(key: str, **words: object) -> str:
    return _SAY[lang.current()][key].format(**words)


def _suit(suit: int) -> str:
    return _SUITS[lang.current()][suit]


#: How many options the estimates line names.
SHOWN = 3
_local = threading.local()


def _bot() -> HardBot:
    bot: HardBot | None = getattr(_local, "coach", None)
    if bot is None:
        bot = _local.coach = HardBot()  # Khó as players meet it
    return bot


def label(card: int) -> str:
    """``9♦``, ``10♥``, ``Q♠``: a card as the hint's lines show it."""
    rank = "23456789TJQKA"[card % 13]
    return ("10" if rank == "T" else rank) + _SYMBOLS[card // 13]


def number(x: float) -> str:
    """Points with one decimal: a decimal comma in Vietnamese (``1,2``), a point in
    English."""
    text = f"{x:.1f}".replace("-0.0", "0.0")
    return text if lang.english() else text.replace(".", ",")


def _labels(mask: int) -> str:
    return " ".join(label(c) for c in cards_of(mask))


def hint(view: PlayerView, names: dict[int, str], language: lang.Lang = "vi") -> dict[str, Any]:
    """The hint for the seat of ``view`` (its pass or its play): ``card`` or
    ``cards``, ``estimates`` (option → mean points) and ``reasons`` (in
    ``language``: it runs in a worker, outside the request). ``names``: the name of
    each other seat, for the reasons."""
    with lang.using(language):
        return _hint(view, names)


def _hint(view: PlayerView, names: dict[int, str]) -> dict[str, Any]:
    bot = _bot()
    if view.phase == "pass":
        w = bot.weigh_pass(view)
        return {
            "cards": [card_name(c) for c in cards_of(w.choice)],
            "estimates": {_key(m): round(w.points[m], 2) for m in w.options},
            "reasons": [*_pass_reasons(view, w.choice), _estimates_line(w, _labels)],
        }
    w = bot.weigh_play(view)
    return {
        "card": card_name(w.choice),
        "estimates": {card_name(c): round(w.points[c], 2) for c in w.options},
        "reasons": [*_play_reasons(view, w, names), _estimates_line(w, label)],
    }


def _key(mask: int) -> str:
    """A pass's key in the estimates: its cards, space-separated (``"QS AH KH"``)."""
    return " ".join(card_name(c) for c in cards_of(mask))


def _estimates_line(w: Weighing, show: Any) -> str:
    """``9♦: trung bình 1,2 điểm · K♠: 3,5 điểm``: the best few options."""
    parts = []
    for i, option in enumerate(w.options[:SHOWN]):
        words = _say("mean") if i == 0 else ""
        # From the figure the estimates carry (rounded to 2 places), so that the
        # line and the estimates never round a ...x5 apart.
        points = round(w.points[option], 2)
        parts.append(f"{show(option)}: {words}{number(points)} {_say('points')}")
    return " · ".join(parts)


def _play_reasons(view: PlayerView, w: Weighing, names: dict[int, str]) -> list[str]:
    out: list[str] = []
    card = w.choice
    if view.legal.bit_count() == 1:
        return [_say("only")]
    trick = view.trick
    led = trick[0][1] // 13 if trick else -1
    qs_out = not (view.played | view.hand) & QS_BIT
    high_spades = view.hand & ~((1 << (QUEEN_SPADES + 1)) - 1) & SUIT_MASKS[SPADES]
    if led >= 0 and not view.hand & SUIT_MASKS[led]:
        out.append(_say("void", suit=_suit(led), card=label(card)))
    if card == QUEEN_SPADES and led >= 0 and trick:
        out.append(_say("drop_queen"))
    elif qs_out and high_spades:
        held = _say("and").join(label(c) for c in cards_of(high_spades))
        if (1 << card) & high_spades:
            out.append(_say("shed_high", card=label(card)))
        else:
            out.append(_say("hold_high", held=held))
    taken = view.points_taken()
    scorers = [s for s, p in enumerate(taken) if p > 0]
    if len(scorers) == 1 and taken[scorers[0]] >= 10:
        s = scorers[0]
        if s == view.seat:
            out.append(_say("my_moon", n=taken[s]))
        else:
            out.append(_say("their_moon", name=names[s], n=taken[s]))
    if w.near:
        out.append(_say("near"))
    return out


def _pass_reasons(view: PlayerView, passing: int) -> list[str]:
    out: list[str] = []
    hand = view.hand
    spades = hand & SUIT_MASKS[SPADES]
    low = (spades & ((1 << QUEEN_SPADES) - 1)).bit_count()
    high = spades & ~((1 << QUEEN_SPADES) - 1)
    if passing & high and low < 4:
        out.append(_say("few_low", low=low, cards=_labels(passing & high)))
    elif hand & QS_BIT and not passing & QS_BIT and low >= 4:
        out.append(_say("cover", low=low))
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if mine and not mine & ~passing:
            out.append(_say("void_pass", suit=_suit(suit)))
    high_hearts = passing & SUIT_MASKS[HEARTS] & ~((1 << (HEARTS * 13 + 8)) - 1)
    if high_hearts:
        out.append(_say("high_hearts", cards=_labels(high_hearts)))
    return out
