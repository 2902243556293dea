"""The table's rules: one immutable value holding every variant (SPEC §1).

>>> r = Rules()
>>> r.players, r.hand_size, r.pass_direction(1), r.pass_direction(4)
(4, 13, 'left', 'none')
>>> Rules(players=5).lead_card == 1   # 2C removed: 3C leads
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from hearts.cards import FULL_DECK, HEARTS_MASK, JD_BIT, QS_BIT, mask_of, parse_card

# The moon rules, the one home of their names (the values of the API's and the
# record's ``moon``; the page reads them from the API).
#: A shot moon adds 26 to every other seat (SPEC §1's default).
ADD_TO_OTHERS: Final = "add_to_others"
#: A shot moon takes 26 off the shooter's own points.
SUBTRACT_FROM_SELF: Final = "subtract_from_self"
#: The shooter chooses one of the two.
SHOOTER_CHOOSES: Final = "shooter_chooses"
#: The type of :attr:`Rules.moon`, whose values are the three names above
#: (tests/engine/test_rules.py holds the two spellings together).
Moon = Literal["add_to_others", "subtract_from_self", "shooter_chooses"]
#: How a moon is scored, once it is: the choice under :data:`SHOOTER_CHOOSES`.
MoonScoring = Literal["add_to_others", "subtract_from_self"]
#: Every :data:`MoonScoring`, in the order the API lists them.
MOON_SCORINGS: tuple[str, ...] = (ADD_TO_OTHERS, SUBTRACT_FROM_SELF)
#: Every :data:`Moon` rule, in the order the API lists them.
MOON_RULES: tuple[str, ...] = (*MOON_SCORINGS, SHOOTER_CHOOSES)

#: Cards taken out of the deck so that it deals evenly (seed 002).
REMOVED: dict[int, tuple[str, ...]] = {
    3: ("2D",),
    4: (),
    5: ("2D", "2C"),
    6: ("2D", "3D", "3C", "4C"),
    7: ("2D", "3D", "3C"),
}

#: The player counts a table may have.
PLAYERS = range(min(REMOVED), max(REMOVED) + 1)
#: The targets a player may choose (seed 002: any agreed score, 50 a sensible minimum).
TARGETS = range(50, 501)
#: The rules a player chooses, the keys of the API's rules object (docs/api.md) in
#: its order: :meth:`Rules.from_api` reads them, :meth:`Rules.to_api` writes them.
API_RULES = ("players", "qs_breaks_hearts", "moon", "jd_bonus", "target")

#: Pass cycles.  With 3 players we chose left, right, no pass (SPEC leaves it open).
PASS_CYCLES: dict[int, tuple[str, ...]] = {
    3: ("left", "right", "none"),
    4: ("left", "right", "across", "none"),
}
_LONG_CYCLE = ("left", "right")

SEATS_4 = ("S", "W", "N", "E")

#: Hearts and 13 for Q♠: a seat that takes all of them (this count) shot the moon.
MOON = 26
#: What the J♦ is worth to its taker under the J♦ rule.
JD_POINTS = -10

# Deck facts per player count, computed once: the hand state reads them on every deal.
_REMOVED_MASKS = {p: mask_of(parse_card(c) for c in cards) for p, cards in REMOVED.items()}
_DECKS = {p: FULL_DECK & ~mask for p, mask in _REMOVED_MASKS.items()}
_HAND_SIZES = {p: deck.bit_count() // p for p, deck in _DECKS.items()}
_LEAD_CARDS = {p: (deck & -deck).bit_length() - 1 for p, deck in _DECKS.items()}


class RulesError(ValueError):
    """A rules value that cannot describe a table.

    From :meth:`Rules.from_api`, ``rule`` says what is wrong: ``"object"`` (the
    rules are not an object), ``"unknown"`` (``key`` is no rule a player chooses) or
    the rule whose value is wrong (and ``key`` the same); elsewhere both are "".
    """

    def __init__(self, message: str, rule: str = "", key: str = "") -> None:
        super().__init__(message)
        self.rule = rule
        self.key = key


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of the table; the defaults are SPEC §1's default table.

    >>> Rules().breakers == HEARTS_MASK
    True
    >>> Rules(qs_breaks_hearts=True).breakers == HEARTS_MASK | QS_BIT
    True
    """

    players: int = 4
    qs_breaks_hearts: bool = False
    moon: Moon = ADD_TO_OTHERS
    jd_bonus: bool = False
    target: int = 100
    pass_count: int = 3
    #: The cards whose play breaks hearts: every heart, and Q♠ under its rule.  The
    #: one home of the rule (:meth:`HandState.push`, :meth:`PlayerView.excluded`);
    #: derived from the options, so neither an option nor part of ``repr``.
    breakers: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in REMOVED:
            raise RulesError(f"players must be 3 to 7, not {self.players!r}")
        if self.moon not in MOON_RULES:
            raise RulesError(f"moon must be one of {', '.join(MOON_RULES)}, not {self.moon!r}")
        if not isinstance(self.target, int) or self.target < 1:
            raise RulesError(f"target must be a positive score, not {self.target!r}")
        if type(self.pass_count) is not int or not 1 <= self.pass_count <= self.hand_size:
            raise RulesError(f"pass_count must be 1 to {self.hand_size}, not {self.pass_count!r}")
        # Computed once: the hand state reads it on every card played.
        object.__setattr__(self, "breakers", HEARTS_MASK | (QS_BIT if self.qs_breaks_hearts else 0))

    # -- the deck -----------------------------------------------------------------
    @property
    def removed(self) -> int:
        return _REMOVED_MASKS[self.players]

    @property
    def deck(self) -> int:
        return _DECKS[self.players]

    @property
    def hand_size(self) -> int:
        return _HAND_SIZES[self.players]

    @property
    def lead_card(self) -> int:
        """The lowest club in the deck: it leads the first trick."""
        return _LEAD_CARDS[self.players]

    @property
    def point_cards(self) -> int:
        """Hearts and Q♠: taking all of them is a moon."""
        return HEARTS_MASK | QS_BIT

    @property
    def seats(self) -> tuple[str, ...]:
        """Seat letters in play order: S W N E for four, P1..Pn otherwise."""
        if self.players == 4:
            return SEATS_4
        return tuple(f"P{i + 1}" for i in range(self.players))

    # -- passing ------------------------------------------------------------------
    def pass_direction(self, hand_number: int) -> str:
        """``left``/``right``/``across``/``none`` for hand ``hand_number`` (1-based)."""
        cycle = PASS_CYCLES.get(self.players, _LONG_CYCLE)
        return cycle[(hand_number - 1) % len(cycle)]

    @property
    def pass_cycle_length(self) -> int:
        """Hands before the pass directions repeat."""
        return len(PASS_CYCLES.get(self.players, _LONG_CYCLE))

    def pass_offset(self, direction: str) -> int:
        """Seats between a passer and the receiver, in play order."""
        n = self.players
        if direction == "left":
            return 1
        if direction == "right":
            return n - 1
        if direction == "across":
            if n != 4:
                raise RulesError("passing across needs four players")
            return 2
        if direction == "none":
            return 0
        raise RulesError(f"unknown pass direction {direction!r}")

    # -- scoring: the one home of a hand's points --------------------------------
    def penalty(self, cards: int) -> int:
        """Hearts (1 each) and Q♠ (13) among ``cards``: what the moon counts.

        >>> from hearts.cards import parse_cards, mask_of
        >>> Rules().penalty(mask_of(parse_cards(["QS", "2H", "3H", "4H", "5H", "6H"])))
        18
        """
        return (cards & HEARTS_MASK).bit_count() + (13 if cards & QS_BIT else 0)

    def card_points(self, cards: int) -> int:
        """The points of ``cards`` taken in tricks, before moon scoring (J♦ −10 under
        the J♦ rule)."""
        points = self.penalty(cards)
        if self.jd_bonus and cards & JD_BIT:
            points += JD_POINTS
        return points

    def score(self, pen: Sequence[int], jd: int, moon: str | None = None) -> list[int]:
        """A finished hand's points per seat: ``pen`` the :meth:`penalty` each seat
        took, ``jd`` the seat that took the J♦ (-1: none).  ``moon`` is how a shot
        moon is scored when the rules let the shooter choose (:data:`ADD_TO_OTHERS`
        unless told); otherwise the rules decide.

        >>> Rules().score([26, 0, 0, 0], -1)
        [0, 26, 26, 26]
        >>> Rules(moon=SUBTRACT_FROM_SELF, jd_bonus=True).score([26, 0, 0, 0], 1)
        [-26, -10, 0, 0]
        """
        out = list(pen)
        for shooter, p in enumerate(pen):
            if p == MOON:
                how: str = self.moon
                if how == SHOOTER_CHOOSES:
                    how = SUBTRACT_FROM_SELF if moon == SUBTRACT_FROM_SELF else ADD_TO_OTHERS
                if how == ADD_TO_OTHERS:
                    out = [0 if s == shooter else MOON for s in range(len(pen))]
                else:
                    out[shooter] = -MOON
                break
        if self.jd_bonus and jd >= 0:
            out[jd] += JD_POINTS
        return out

    def moon_choice(self, totals: Sequence[int], pen: Sequence[int], jd: int) -> str:
        """How a computer shooter scores the moon when the rules let it choose:
        adding 26 to the others, unless that ends the match without the shooter
        alone at the lowest total.  Under the other rules, the rule itself."""
        if self.moon != SHOOTER_CHOOSES:
            return self.moon
        if MOON not in pen:
            return ADD_TO_OTHERS
        shooter = list(pen).index(MOON)
        added = [t + p for t, p in zip(totals, self.score(pen, jd, ADD_TO_OTHERS), strict=True)]
        if max(added) >= self.target:
            low = min(added)
            if added[shooter] != low or added.count(low) > 1:
                return SUBTRACT_FROM_SELF
        return ADD_TO_OTHERS

    # -- records ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The record's ``rules`` object: the three SPEC keys, others only when not default."""
        out: dict[str, Any] = {
            "qs_breaks_hearts": self.qs_breaks_hearts,
            "moon": self.moon,
            "jd_bonus": self.jd_bonus,
        }
        default = Rules()
        for option in fields(self):
            key, value = option.name, getattr(self, option.name)
            if option.init and key not in out and value != getattr(default, key):
                out[key] = value
        return out

    # -- the API ------------------------------------------------------------------
    def to_api(self) -> dict[str, Any]:
        """The API's rules object: the :data:`API_RULES`, all of them.

        >>> api = Rules(players=5, jd_bonus=True).to_api()
        >>> api["players"], api["jd_bonus"], api["moon"], tuple(api) == API_RULES
        (5, True, 'add_to_others', True)
        """
        return {key: getattr(self, key) for key in API_RULES}

    @classmethod
    def from_api(cls, data: Any, base: Rules | None = None) -> Rules:
        """The rules of the API's rules object ``data``: any of :data:`API_RULES`
        with a value it may take (``players`` in :data:`PLAYERS`, ``target`` in
        :data:`TARGETS`, ``moon`` in :data:`MOON_RULES`, true or false for the
        others); a key left out is ``base``'s (the defaults' if None), the options
        not in the API the defaults'.  A :class:`RulesError` naming the first key
        at fault otherwise.

        >>> rules = Rules.from_api({"players": 5, "moon": SHOOTER_CHOOSES}, Rules(target=50))
        >>> rules.players, rules.moon, rules.target
        (5, 'shooter_chooses', 50)
        >>> Rules.from_api({"target": 10})
        Traceback (most recent call last):
        hearts.rules.RulesError: target must be 50 to 500, not 10
        >>> try:
        ...     Rules.from_api({"colour": "red"})
        ... except RulesError as err:
        ...     print(err.rule, err.key, err)
        unknown colour unknown rule 'colour'
        """
        if not isinstance(data, dict):
            raise RulesError("rules must be an object", "object")
        for key, value in data.items():
            if key not in API_RULES:
                raise RulesError(f"unknown rule {key!r}", "unknown", str(key))
            if key == "players":
                ok = type(value) is int and value in PLAYERS
                want = f"{PLAYERS.start} to {PLAYERS.stop - 1}"
            elif key == "target":
                ok = type(value) is int and value in TARGETS
                want = f"{TARGETS.start} to {TARGETS.stop - 1}"
            elif key == "moon":
                ok = value in MOON_RULES
                want = f"one of {', '.join(MOON_RULES)}"
            else:
                ok = type(value) is bool
                want = "true or false"
            if not ok:
                raise RulesError(f"{key} must be {want}, not {value!r}", key, key)
        base = base if base is not None else cls()
        chosen = {key: getattr(base, key) for key in API_RULES} | data
        return cls(**chosen)

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        if not isinstance(data, dict):
            raise RulesError("rules must be an object")
        types: dict[str, type] = {
            "players": int,
            "qs_breaks_hearts": bool,
            "moon": str,
            "jd_bonus": bool,
            "target": int,
            "pass_count": int,
        }
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in types:
                raise RulesError(f"unknown rule {key!r}")
            want = types[key]
            if type(value) is not want:
                raise RulesError(f"rule {key!r} must be {want.__name__}, not {value!r}")
            kwargs[key] = value
        return cls(**kwargs)
