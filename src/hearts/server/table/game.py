"""A match as the server holds it: South's actions, the computers' turns, and the
State that South may see (docs/api.md).

Nothing here touches the database or the network: :class:`Game` is loaded from
and saved to rows by :mod:`hearts.server.store.db`, and a computer's decision is made
in a worker (:mod:`hearts.server.table.computers`), given only that seat's
:class:`~hearts.view.PlayerView`.
"""

from __future__ import annotations

import functools
import itertools
import logging
from dataclasses import dataclass
from typing import Any

from hearts.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    HEARTS_MASK,
    JD_BIT,
    QS_BIT,
    SPADES,
    SUIT_MASKS,
    card_name,
    cards_of,
    highest,
    lowest,
    names,
    parse_card,
)
from hearts.fairness import HandSeeds, is_client_seed
from hearts.hand import DONE, PASS, PLAY, HandState
from hearts.match import HandResult, Match
from hearts.record import read_record, write_record
from hearts.rules import MOON_SCORINGS, SHOOTER_CHOOSES, Rules, RulesError
from hearts.server.i18n import lang, messages_en
from hearts.server.i18n.messages import error_message, illegal_reason, pass_message, rule_message
from hearts.server.table.pacing import Pace
from hearts.view import PlayerView

log = logging.getLogger("hearts.server")

SOUTH = 0
#: The four-player table's seat names (SPEC); other tables name the seats after
#: "Bạn" in play order with NAMES_AROUND (the names of seed 001's worked example).
NAMES = {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}
NAMES_AROUND = ("An", "Bình", "Chi", "Dũng", "Hà", "Khôi")
#: The preferred display order of suits: red and black alternate.
_SUIT_ORDER = (CLUBS, HEARTS, SPADES, DIAMONDS)
_RED = frozenset((DIAMONDS, HEARTS))


class GameError(Exception):
    """An action the game refuses; nothing changed.  ``code`` is the API's error code."""

    def __init__(
        self, code: str, message: str | None = None, reason: dict[str, Any] | None = None
    ) -> None:
        super().__init__(code)
        self.code = code
        self.message = message or error_message(code)
        self.reason = reason  # what is wrong, as a code and its values (a bad record)


def display_order(hand: int) -> list[int]:
    """South's cards sorted for display: by suit with red and black alternating as
    far as the suits held allow (♣ ♥ ♠ ♦ when all four are there), ranks ascending.

    >>> [card_name(c) for c in display_order(sum(1 << parse_card(x)
    ...     for x in ("AS", "2C", "3D", "KH", "4S")))]
    ['2C', 'KH', '4S', 'AS', '3D']
    >>> [card_name(c) for c in display_order(sum(1 << parse_card(x) for x in ("2C", "3D", "4S")))]
    ['2C', '3D', '4S']
    """
    held = tuple(s for s in _SUIT_ORDER if hand & SUIT_MASKS[s])
    return [c for s in _suit_order(held) for c in cards_of(hand & SUIT_MASKS[s])]


@functools.cache
def _suit_order(held: tuple[int, ...]) -> tuple[int, ...]:
    """The order of the suits held that alternates red and black the most (the
    first such in ``_SUIT_ORDER``'s permutations); a room shows it many times a second."""
    best: tuple[int, ...] = held
    best_changes = -1
    for order in itertools.permutations(held):
        changes = sum((a in _RED) != (b in _RED) for a, b in itertools.pairwise(order))
        if changes > best_changes:
            best, best_changes = order, changes
    return best


def _names_sorted(mask: int) -> list[str]:
    return [card_name(c) for c in display_order(mask)]


def seat_names(rules: Rules) -> dict[str, str]:
    """The name of each seat: Bạn/Tây/Bắc/Đông at four, else Bạn and then An,
    Bình, … in play order (You/West/North/East, Ann, Ben, … in English)."""
    if lang.english():
        if rules.seats == tuple(NAMES):
            return dict(messages_en.NAMES)
        return dict(zip(rules.seats, ("You", *messages_en.NAMES_AROUND), strict=False))
    if rules.seats == tuple(NAMES):
        return dict(NAMES)
    return dict(zip(rules.seats, ("Bạn", *NAMES_AROUND), strict=False))


def rules_from_api(data: Any, base: Rules) -> Rules:
    """The rules a player asked for (``None``: ``base``, the server's table), read
    by :meth:`Rules.from_api`; a :class:`GameError` ``bad_rules`` with the message
    of the rule at fault, in the request's language, for anything else than the
    five keys with their values."""
    if data is None:
        return base
    try:
        return Rules.from_api(data, base)
    except RulesError as err:
        if not err.rule:  # not the request's fault
            raise
        raise GameError("bad_rules", rule_message(err.rule, err.key)) from None


def client_seed_from_api(value: str | None) -> str | None:
    """A deal's client seed (docs/fairness.md), or None; a :class:`GameError`
    ``bad_client_seed`` for anything but 1-64 characters of ``[0-9a-f]``."""
    if value is not None and not is_client_seed(value):
        raise GameError("bad_client_seed")
    return value


def rules_json(rules: Rules) -> dict[str, Any]:
    """The five keys a player chooses, all of them (:meth:`Rules.to_api`)."""
    return rules.to_api()


@dataclass(frozen=True, slots=True)
class Job:
    """A computer decision to make: ``kind`` "pass" (one view per seat still to
    pass) or "play" (the view of the seat to play)."""

    kind: str
    views: tuple[PlayerView, ...]


#: How South's card went with Cảnh báo nước đi (``checker`` of POST /api/play): the
#: switch on and no question, or the question asked first (kept or changed).
CHECKER_MODES = ("on", "asked")


@dataclass(frozen=True, slots=True)
class Checker:
    """What a match records of Cảnh báo nước đi: South's cards played with it on,
    those it asked about first, and whether any was played with it off."""

    plays: int = 0
    asked: int = 0
    off: bool = False

    def after(self, mode: str | None) -> Checker:
        """This record after a card of South's played in ``mode`` (None: it was off)."""
        if mode is None:
            return Checker(self.plays, self.asked, True)
        return Checker(self.plays + 1, self.asked + (mode == "asked"), self.off)

    @property
    def clean(self) -> bool:
        """On for every card of South's, and it never had to ask."""
        return self.plays > 0 and not self.asked and not self.off


@dataclass
class Game:
    """One match of one player: the :class:`~hearts.match.Match` (totals, finished
    hands, the hand on the table), its number among the player's matches, and
    whether the table played the hand on it out by itself."""

    match: Match
    match_no: int
    auto_finished: bool = False
    deal_key: int = 0  # the match's database id
    hints: int = 0  # hints South was given in this match (Gợi ý)
    take_backs: int = 0  # cards South took back in this match (Đi lại)
    checker: Checker = Checker()  # Cảnh báo nước đi in this match
    #: Seats that choose how their moon is scored (South; a room's humans).
    choosers: frozenset[int] = frozenset((SOUTH,))
    #: The seeds the hand on the table was dealt from (docs/fairness.md); None for
    #: a hand dealt before deals were committed.
    seeds: HandSeeds | None = None
    #: The index of seat 0 of this game in the deal's seat order (a room's State is
    #: a copy turned so that its viewer sits at 0: there, the viewer's own seat).
    deal_seat: int = 0

    @classmethod
    def new(cls, rules: Rules, match_no: int, seeds: HandSeeds, deal_key: int = 0) -> Game:
        """Match ``match_no`` of a player, at the table ``rules``, first hand dealt
        from ``seeds`` (``deal_key``: the match's database id)."""
        game = cls(match=Match(rules), match_no=match_no, deal_key=deal_key)
        game._deal(seeds)
        return game

    def _deal(self, seeds: HandSeeds) -> None:
        """Deal the match's next hand from ``seeds`` (docs/fairness.md)."""
        number = len(self.match.results) + 1
        rules = self.rules
        self.match.start(HandState(rules, seeds.deal(rules, number), rules.pass_direction(number)))
        self.seeds = seeds

    def copy(self) -> Game:
        return Game(
            match=self.match.copy(),
            match_no=self.match_no,
            auto_finished=self.auto_finished,
            deal_key=self.deal_key,
            hints=self.hints,
            take_backs=self.take_backs,
            checker=self.checker,
            choosers=self.choosers,
            seeds=self.seeds,
            deal_seat=self.deal_seat,
        )

    # -- persistence helpers ------------------------------------------------------
    def hand_record(self, secret: bool = False) -> dict[str, Any]:
        """The hand on the table as a ``hearts-hand/1`` record (possibly unfinished),
        with its seeds: the server's only once the hand is over, or with ``secret``
        (the database's own copy, never an answer)."""
        record = write_record(self.hand, self.hand_no)
        result = self.match.result
        if result is not None:
            # A moon the shooter chose to score differently: keep the points given.
            record["points"] = dict(zip(self.rules.seats, result.points, strict=True))
        if self.seeds is not None:
            record["fairness"] = self.seeds.to_json(reveal=secret or self.hand_done)
        return record

    @staticmethod
    def hand_from_record(record: dict[str, Any]) -> tuple[HandState, int, HandSeeds | None]:
        """The hand of a record :meth:`hand_record` wrote with ``secret``, and its seeds."""
        state, number = read_record(record)
        seeds = HandSeeds.from_json(record["fairness"]) if "fairness" in record else None
        return state, number, seeds

    # -- the match ----------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def hand(self) -> HandState:
        """The hand on the table (a game always has one, finished or not)."""
        hand = self.match.hand
        assert hand is not None
        return hand

    @property
    def hand_no(self) -> int:
        return self.match.hand_number

    @property
    def totals(self) -> list[int]:
        return self.match.totals

    @property
    def results(self) -> list[HandResult]:
        return self.match.results

    @property
    def winner(self) -> int:
        return self.match.winner

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def hand_done(self) -> bool:
        return self.hand.phase == DONE

    @property
    def moon_pending(self) -> bool:
        """South shot the moon and the rules let South choose: the hand waits
        (finished, not yet scored) for :meth:`south_moon`."""
        return self.hand_done and self.match.result is None

    def _finish(self) -> None:
        """Score the finished hand, unless South shot the moon and may choose."""
        hand = self.hand
        if self.rules.moon == SHOOTER_CHOOSES and hand.shooter() in self.choosers:
            return
        self.match.finish_hand()

    # -- South's actions ----------------------------------------------------------
    def south_pass(self, cards: list[str]) -> None:
        self.seat_pass(SOUTH, cards)

    def south_play(self, card_text: str) -> None:
        self.seat_play(SOUTH, card_text)

    def south_moon(self, choice: str) -> None:
        self.seat_moon(SOUTH, choice)

    # -- a seat's actions (South's above; any human's in a room) --------------------
    def seat_pass(self, seat: int, cards: list[str]) -> None:
        view = self.match.view(seat)
        if self.over or view.phase != PASS:
            raise GameError("wrong_phase", "Bây giờ không phải lúc chuyền bài")
        if view.passed:
            raise GameError("wrong_phase", "Bạn đã chuyền bài rồi")
        parsed = [_parse(c) for c in cards]
        mask = 0
        for c in parsed:
            mask |= 1 << c
        count = self.rules.pass_count
        if len(parsed) != count or mask.bit_count() != len(parsed):
            raise GameError("bad_pass", pass_message(count))
        if mask & ~view.hand:
            raise GameError("not_in_hand")
        self.hand.pass_cards(seat, mask)

    def seat_play(self, seat: int, card_text: str) -> None:
        card = _parse(card_text)
        view = self.match.view(seat)
        if self.over or view.phase != PLAY:
            raise GameError("wrong_phase", "Bây giờ không phải lúc đánh bài")
        if view.turn != seat:
            raise GameError("not_your_turn")
        reason = illegal_reason(view, card)
        if reason is not None:
            raise GameError(reason.code, reason.message)
        self._play(card)

    def seat_moon(self, seat: int, choice: str) -> None:
        """``seat``, who shot the moon, scores it: adding 26 to the others or
        subtracting 26 from their own points."""
        if not self.moon_pending or self.hand.shooter() != seat:
            raise GameError("wrong_phase", "Bây giờ không phải lúc chọn cách tính bắn trăng")
        if choice not in MOON_SCORINGS:
            raise GameError("bad_request")
        self.match.finish_hand(choice)

    def next_hand(self, seeds: HandSeeds) -> None:
        """Deal the next hand from ``seeds`` (the hand is over, the match is not)."""
        if self.over:
            raise GameError("match_over")
        if not self.hand_done or self.moon_pending:
            raise GameError("wrong_phase", "Ván này chưa xong")
        self._deal(seeds)
        self.auto_finished = False

    def hint_view(self) -> PlayerView:
        """South's view when South has a pass or a card to choose (a hint may be
        asked for it); a :class:`GameError` otherwise."""
        view = self.south_view()
        if self.over or self.moon_pending or view.phase not in (PASS, PLAY):
            raise GameError("wrong_phase", "Bây giờ không có gì để gợi ý")
        if view.phase == PASS and view.passed:
            raise GameError("wrong_phase", "Bạn đã chuyền bài rồi")
        if view.phase == PLAY and view.turn != SOUTH:
            raise GameError("not_your_turn")
        return view

    def take_back_from(self) -> int | None:
        """Where a take-back would cut the hand's plays: the index of South's last
        card, while the hand is being played (None: nothing to take back).  Every
        card since, the computers' replies, goes back with it; the pass never does
        (the others have the cards), nor anything once the hand is over."""
        hand = self.hand
        if self.over or hand.phase != PLAY:
            return None
        for i in range(len(hand.plays) - 1, -1, -1):
            if hand.seat_of_play(i) == SOUTH:
                return i
        return None

    def south_take_back(self) -> None:
        """Đi lại: take back South's last card and the computers' cards after it;
        South is to play that card's turn again.  The computers decide from their
        views alone, so the same card again brings the same replies."""
        start = self.take_back_from()
        if start is None:
            raise GameError("nothing_to_take_back")
        hand = self.hand
        while len(hand.plays) > start:
            hand.undo()
        self.take_backs += 1

    def seat_names_by_index(self) -> dict[int, str]:
        names = seat_names(self.rules)
        return {i: names[s] for i, s in enumerate(self.rules.seats)}

    # -- the computers' turns -----------------------------------------------------
    def computer_job(self, humans: frozenset[int] = frozenset((SOUTH,))) -> Job:
        """The computers' next decision at a table whose page asks for each (solo), as
        views only: they pass once the ``humans`` have, and a :class:`GameError` says
        why when it is a human's move."""
        hand = self.hand
        if self.over or hand.phase == DONE:
            raise GameError("wrong_phase", "Ván này đã xong")
        if hand.phase == PASS and any(not hand.passes[s] for s in humans):
            count = self.rules.pass_count
            raise GameError(
                "not_computer_turn",
                f"Choose {count} cards to pass"
                if lang.english()
                else f"Hãy chọn {count} lá để chuyền",
            )
        job = self.computers_job(humans)
        if job is None:
            raise GameError("not_computer_turn")
        return job

    def computers_job(self, humans: frozenset[int] | set[int]) -> Job | None:
        """The next decision of the computers at a table where ``humans`` sit (every
        mode's one rule): the pass of each computer yet to pass, or the card of the
        computer to play; None when no computer is to move (a human's turn, or the
        hand is over)."""
        if not self.computers_to_move(humans):
            return None
        hand = self.hand
        if hand.phase == PASS:
            seats = [s for s in range(hand.n) if s not in humans and not hand.passes[s]]
            return Job("pass", tuple(self.match.view(s) for s in seats))
        return Job("play", (self.match.view(hand.turn),))

    def computers_to_move(self, humans: frozenset[int] | set[int]) -> bool:
        """Whether :meth:`computers_job` has a decision to make (cheap: no view made)."""
        hand = self.hand
        if self.over or hand.phase == DONE:
            return False
        if hand.phase == PASS:
            return any(not hand.passes[s] for s in range(hand.n) if s not in humans)
        return hand.turn not in humans

    def apply_computer(self, job: Job, choices: list[int] | None) -> None:
        """Apply the decisions made for ``job`` (computed on this very state).

        ``None`` (the worker failed) or an impossible choice is replaced by a plain
        legal one and logged: the table never stalls on a computer.
        """
        hand = self.hand
        if job.kind == "pass":
            want = self.rules.pass_count
            for i, view in enumerate(job.views):
                held = hand.hands[view.seat]
                mask = choices[i] if choices is not None else 0
                if mask.bit_count() != want or mask & ~held:
                    if choices is not None:
                        log.error("bad pass %s for seat %d: passing highest", mask, view.seat)
                    mask = _highest_cards(held, want)
                hand.pass_cards(view.seat, mask)
            return
        (view,) = job.views
        if view.seat != hand.turn or hand.phase != PLAY:
            raise GameError("stale")
        legal = hand.legal_mask()
        card = choices[0] if choices is not None else -1
        if not (0 <= card < 52 and legal >> card & 1):
            if choices is not None:
                log.error("bot chose illegal %s for seat %d: playing lowest", card, view.seat)
            card = lowest(legal)
        self._play(card)

    # -- internals ----------------------------------------------------------------
    def _play(self, card: int) -> None:
        hand = self.hand
        hand.push(card)
        if hand.phase == PLAY and not hand.trick and self._nothing_left_to_decide():
            while hand.phase == PLAY:
                hand.push(lowest(hand.legal_mask()))
            self.auto_finished = True
        if hand.phase == DONE:
            self._finish()

    def _nothing_left_to_decide(self) -> bool:
        """At the start of a trick: no points are left to take, or South is on lead
        and every card South holds beats every card of its suit still out."""
        hand = self.hand
        out = 0
        for mask in hand.hands:
            out |= mask
        scoring = HEARTS_MASK | QS_BIT | (JD_BIT if self.rules.jd_bonus else 0)
        if not out & scoring:
            return True
        if hand.turn != SOUTH:
            return False
        mine = hand.hands[SOUTH]
        others = out & ~mine
        for suit_mask in SUIT_MASKS:
            mine_s, others_s = mine & suit_mask, others & suit_mask
            if mine_s and others_s and lowest(mine_s) < highest(others_s):
                return False
        return True

    # -- what a seat sees ---------------------------------------------------------
    def south_view(self) -> PlayerView:
        """The hand on the table as South sees it: all the server tells South of it."""
        return self.match.view(SOUTH)

    def state(
        self,
        version: int,
        level: str,
        quick: bool,
        take_back: bool = True,
        next_commitment: str | None = None,
        seat: int = SOUTH,
        preparing_hard: bool = False,
        pace: Pace | None = None,
    ) -> dict[str, Any]:
        """The State of docs/api.md (its one schema: :class:`schema.State`) from
        ``seat``: everything that seat may know, nothing more.  Plain dicts, as the
        schema's ``model_dump`` gives them (tests/server/test_state_dict.py): a room
        builds one per seat after every action, and models cost ten times more.

        Seat letters are relative to ``seat``: it is "S" (the first letter) and the
        others follow in play order, so one renderer draws every table.  The hand
        comes from that seat's :class:`~hearts.view.PlayerView` only; the rest is
        the match's public record (rules, totals, finished hands' scores, whether
        the table played a hand out).  ``next_commitment``: that of the server seed
        of the next deal (docs/fairness.md); ``preparing_hard``: Khó's workers are
        still warming up (computers.py's BotPool), its cards wait for them;
        ``pace``: the computers' pace the page keeps (a solo table; None where the
        server keeps it).
        """
        rules = self.rules
        at = _Seats(rules.seats, seat)
        return {
            "version": version,
            "settings": {
                "level": level,
                "quick": quick,
                "take_back": take_back,
                "pace": pace.to_api() if pace is not None else None,
            },
            "rules": rules_json(rules),
            "seats": list(rules.seats),
            "names": seat_names(rules),
            "match": self._match_json(at),
            "hand": self._hand_json(self.match.view(seat), at, take_back),
            "unlocked": [],
            "fairness": {"next_commitment": next_commitment},
            "preparing_hard": preparing_hard,
        }

    def _match_json(self, at: _Seats) -> dict[str, Any]:
        return {
            "hand_number": self.hand_no,
            "target": self.rules.target,
            "totals": at.by_seat(self.totals),
            "hands": [
                {
                    "points": at.by_seat(r.points),
                    "moon": at.letter_or_none(r.shooter),
                    "moon_scoring": r.moon,
                }
                for r in self.results
            ],
            "over": self.winner >= 0,
            "winner": at.letter_or_none(self.winner),
            "hints": self.hints,
            "take_backs": self.take_backs,
            "checker": {"plays": self.checker.plays, "asked": self.checker.asked},
        }

    def _hand_json(self, view: PlayerView, at: _Seats, take_back: bool) -> dict[str, Any]:
        rules = self.rules
        # Only the shooter chooses how a moon counts: the others wait, as after a hand.
        choosing = self.moon_pending and self.hand.shooter() == view.seat
        phase = "moon_choice" if choosing else "done" if self.moon_pending else view.phase
        turn, reasons = _turn(view, phase, at)
        # The score of a finished hand (a moon scored as the shooter chose) is the
        # match's public record, not part of the hand.
        result = self.match.result
        return {
            # The engine's words for the phase and the direction are the schema's.
            "phase": phase,
            "pass_direction": view.direction,
            "pass_count": rules.pass_count,
            "pass_to": at.letter_or_none(view.pass_to),
            "pass_from": at.letter_or_none(view.pass_from),
            "passed": _names_sorted(view.passed) if view.passed else None,
            "received": _names_sorted(view.received) if view.received else None,
            "mark_received": view.pass_to >= 0 and phase == PLAY and len(view.plays) < view.n,
            "cards": _names_sorted(view.hand),
            "legal": _names_sorted(view.legal),
            "illegal_reasons": reasons,
            "turn": turn,
            "trick": [at.play(s, c) for s, c in view.trick],
            "tricks": _tricks_json(view, at),
            "counts": at.by_seat(view.counts),
            "taken": at.by_seat(view.points_taken()),
            "hearts_broken": view.broken,
            "broken_at": view.broken_at if view.broken_at >= 0 else None,
            "points": at.by_seat(result.points) if result else None,
            "moon": at.letter_or_none(result.shooter) if result else None,
            "moon_scoring": result.moon if result else None,
            "moon_choice": self._moon_choice(at) if choosing else None,
            # Whether the table played the last tricks out itself: a public fact of
            # the match (every seat saw the cards go), kept by the game, not the hand.
            "auto_finished": self.auto_finished,
            "can_take_back": take_back and self.take_back_from() is not None,
            "fairness": self._fairness_json(at),
        }

    def _fairness_json(self, at: _Seats) -> dict[str, Any] | None:
        """The hand's seeds (docs/fairness.md): the server's, and the whole deal by
        seat, once the hand is over (the seeds then tell the deal to anyone)."""
        if self.seeds is None:
            return None
        done = self.hand_done
        deal = None
        if done:
            deal = {at.letter(s): names(m) for s, m in enumerate(self.hand.deal_masks)}
        return self.seeds.to_json(reveal=done) | {
            "client_seats": self.seeds.client_seats,
            "deal_seat": (self.deal_seat + at.viewer) % self.rules.players,
            "deal": deal,
        }

    def _moon_choice(self, at: _Seats) -> dict[str, Any]:
        """The shooter's two ways to score the moon (the points and the totals after
        each), while the shooter chooses."""
        rules, hand = self.rules, self.hand
        pen, jd = hand.penalties(), hand.jd_taker()
        choice = {}
        for how in MOON_SCORINGS:
            points = rules.score(pen, jd, how)
            after = [t + p for t, p in zip(self.totals, points, strict=True)]
            choice[how] = {"points": at.by_seat(points), "totals": at.by_seat(after)}
        return choice


@dataclass(frozen=True, slots=True)
class _Seats:
    """The seat letters as ``viewer`` sees them: ``viewer`` is the first letter, the
    others follow in play order.

    >>> at = _Seats(("S", "W", "N", "E"), 1)
    >>> at.letter(1), at.letter(0), at.by_seat([5, 6, 7, 8])
    ('S', 'E', {'S': 6, 'W': 7, 'N': 8, 'E': 5})
    """

    letters: tuple[str, ...]
    viewer: int

    def letter(self, seat: int) -> str:
        return self.letters[(seat - self.viewer) % len(self.letters)]

    def letter_or_none(self, seat: int) -> str | None:
        return self.letter(seat) if seat >= 0 else None

    def by_seat(self, values: list[int] | tuple[int, ...]) -> dict[str, int]:
        n = len(self.letters)
        assert len(values) == n
        return {self.letters[r]: values[(r + self.viewer) % n] for r in range(n)}

    def play(self, seat: int, card: int) -> dict[str, str]:
        return {"seat": self.letter(seat), "card": card_name(card)}


def _turn(view: PlayerView, phase: str, at: _Seats) -> tuple[str | None, dict[str, str]]:
    """Whose turn it is, and why each of the viewer's cards may not be played now."""
    reasons: dict[str, str] = {}
    turn: str | None = None
    if phase == PASS:
        turn = None if view.passed else at.letter(view.seat)
    elif phase == PLAY:
        turn = at.letter(view.turn)
        if view.turn == view.seat:
            for c in display_order(view.hand & ~view.legal):
                why = illegal_reason(view, c)
                if why is not None:
                    reasons[card_name(c)] = why.message
    return turn, reasons


def _tricks_json(view: PlayerView, at: _Seats) -> list[dict[str, Any]]:
    """The finished tricks, each with the points every seat has taken after it."""
    rules = view.rules
    taken = [0] * view.n
    out = []
    for cards, won_by in zip(view.tricks, view.winners(), strict=True):
        points = rules.card_points(sum(1 << c for _, c in cards))
        taken[won_by] += points
        out.append(
            {
                "leader": at.letter(cards[0][0]),
                "winner": at.letter(won_by),
                "points": points,
                "taken": at.by_seat(taken),
                "cards": [at.play(s, c) for s, c in cards],
            }
        )
    return out


def _parse(text: str) -> int:
    try:
        return parse_card(text)
    except ValueError:
        raise GameError("bad_card") from None


def _highest_cards(hand: int, k: int) -> int:
    out = 0
    for c in sorted(cards_of(hand), key=lambda c: (c % 13, c), reverse=True)[:k]:
        out |= 1 << c
    return out


__all__ = [
    "NAMES",
    "Game",
    "GameError",
    "Job",
    "display_order",
]
