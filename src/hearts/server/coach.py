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
from hearts.view import PlayerView

_SYMBOLS = "♣♦♠♥"
_SUITS_VI = ("nhép", "rô", "bích", "cơ")
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
    """Points in the Vietnamese way: one decimal, a decimal comma (``1,2``)."""
    return f"{x:.1f}".replace(".", ",").replace("-0,0", "0,0")


def _labels(mask: int) -> str:
    return " ".join(label(c) for c in cards_of(mask))


def hint(view: PlayerView, names: dict[int, str]) -> dict[str, Any]:
    """The hint for the seat of ``view`` (its pass or its play): ``card`` or
    ``cards``, ``estimates`` (option → mean points) and ``reasons`` (Vietnamese).
    ``names``: the Vietnamese name of each other seat, for the reasons."""
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
        words = "trung bình " if i == 0 else ""
        parts.append(f"{show(option)}: {words}{number(w.points[option])} điểm")
    return " · ".join(parts)


def _play_reasons(view: PlayerView, w: Weighing, names: dict[int, str]) -> list[str]:
    out: list[str] = []
    card = w.choice
    if view.legal.bit_count() == 1:
        return ["Đây là lá duy nhất bạn được đánh."]
    trick = view.trick
    led = trick[0][1] // 13 if trick else -1
    qs_out = not (view.played | view.hand) & QS_BIT
    high_spades = view.hand & ~((1 << (QUEEN_SPADES + 1)) - 1) & SUIT_MASKS[SPADES]
    if led >= 0 and not view.hand & SUIT_MASKS[led]:
        out.append(f"Bạn đã hết {_SUITS_VI[led]}: được bỏ lá khác, {label(card)} là lá nên bỏ.")
    if card == QUEEN_SPADES and led >= 0 and trick:
        out.append("Thả đầm bích khi người khác phải ăn vòng này.")
    elif qs_out and high_spades:
        held = " và ".join(label(c) for c in cards_of(high_spades))
        if (1 << card) & high_spades:
            out.append(f"Đầm bích vẫn chưa ra: bớt {label(card)} đi để khỏi phải ăn đầm.")
        else:
            out.append(f"Đầm bích vẫn chưa ra mà bạn còn giữ {held}: coi chừng phải ăn đầm.")
    taken = view.points_taken()
    scorers = [s for s, p in enumerate(taken) if p > 0]
    if len(scorers) == 1 and taken[scorers[0]] >= 10:
        s = scorers[0]
        if s == view.seat:
            out.append(f"Bạn đã ăn cả {taken[s]} điểm của ván: có thể bắn trăng.")
        else:
            out.append(f"{names[s]} đã ăn cả {taken[s]} điểm của ván: coi chừng bắn trăng.")
    if w.near:
        out.append("Trận sắp kết thúc: Khó chọn theo cơ hội thắng trận, không chỉ theo điểm.")
    return out


def _pass_reasons(view: PlayerView, passing: int) -> list[str]:
    out: list[str] = []
    hand = view.hand
    spades = hand & SUIT_MASKS[SPADES]
    low = (spades & ((1 << QUEEN_SPADES) - 1)).bit_count()
    high = spades & ~((1 << QUEEN_SPADES) - 1)
    if passing & high and low < 4:
        out.append(
            f"Bạn chỉ có {low} lá bích nhỏ hơn Q: {_labels(passing & high)} dễ dính đầm bích."
        )
    elif hand & QS_BIT and not passing & QS_BIT and low >= 4:
        out.append(f"Bạn có {low} lá bích nhỏ che đầm bích: giữ lại.")
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if mine and not mine & ~passing:
            out.append(
                f"Chuyền hết {_SUITS_VI[suit]}: bạn sẽ được bỏ bài xấu khi ai đi {_SUITS_VI[suit]}."
            )
    high_hearts = passing & SUIT_MASKS[HEARTS] & ~((1 << (HEARTS * 13 + 8)) - 1)
    if high_hearts:
        out.append(f"{_labels(high_hearts)} là cơ cao, dễ phải ăn điểm.")
    return out
