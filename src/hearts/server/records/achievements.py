"""Achievements: named goals a player unlocks by what really happened at the table.

The server decides, never the page: at the end of each hand (and of each match),
inside the transaction that saves it, :func:`record` looks at the finished hand,
the finished match and the player's saved history, and stores every goal newly
met in the ``achievements`` table (one row per player and goal: a goal is
unlocked once, however often it is met again).

The conditions are pure functions over :class:`HandFacts`, :class:`MatchFacts`
and :class:`History`, so the tests build hands and matches that do and do not
meet each goal. South is seat 0 at every table size.

Players of releases before this one start with every goal locked; the counted
goals (matches played, moons, wins in a row, variants) count their saved history
(matches and hands the database already holds) and unlock at the end of the
player's next hand.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from hearts.cards import HEARTS_MASK, JD_BIT, QS_BIT, QUEEN_SPADES
from hearts.hand import HandState
from hearts.match import HandResult
from hearts.record import read_record
from hearts.rules import ADD_TO_OTHERS, Rules, RulesError
from hearts.server.i18n import lang, messages_en
from hearts.server.store.db import Loaded, Store, achievements, hands, matches, players

SOUTH = 0
HEARTS = 13  # every table keeps all thirteen hearts
#: A whole-match goal needs a match to at least this many points: a shorter one
#: ends after two or three hands, and with a target of 50 every winner is under 50.
FULL_MATCH = 100


@dataclass(frozen=True, slots=True)
class Goal:
    """One achievement: a stable ``id`` (the page's ``data-achievement``), its
    Vietnamese name and one-line condition, an icon, and ``goal`` > 1 for the
    counted ones (progress n/goal)."""

    id: str
    name: str
    condition: str
    icon: str
    goal: int = 1


GOALS: tuple[Goal, ...] = (
    # -- one hand ------------------------------------------------------------------
    Goal("moon", "Bắn trăng", "Ăn trọn 13 lá cơ và đầm bích trong một ván", "🌙"),
    Goal(
        "moon_stopper",
        "Chặn trăng",
        "Một nhà ăn đầm bích và mọi lá cơ khác, còn bạn chỉ ăn 1–3 lá cơ để chặn",
        "🛡️",
    ),
    Goal("clean_hand", "Sạch bóng", "Hết một ván không ăn lá cơ nào, không ăn đầm bích", "🫧"),
    Goal("clean_hand_hard", "Né cả máy Khó", "Một ván sạch (không cơ, không đầm) ở mức Khó", "🥷"),
    Goal("queen_giver", "Gửi đầm", "Đánh đầm bích vào một vòng mà nhà khác ăn", "💌"),
    Goal("jack_taker", "Bắt bồi rô", "Ăn J♦ trong trận có luật J♦ trừ 10 điểm", "💎"),
    # -- one match -----------------------------------------------------------------
    Goal("first_match", "Trận đầu tiên", "Chơi trọn một trận đến khi có người thắng", "🎴"),
    Goal("first_win", "Chiến thắng đầu tiên", "Thắng một trận", "🏆"),
    Goal("win_hard", "Hạ máy Khó", "Thắng một trận mà mọi ván đều chơi ở mức Khó", "🧠"),
    Goal("win_under_50", "Thắng đậm", "Thắng trận đến 100 điểm trở lên với tổng dưới 50", "🎯"),
    Goal(
        "no_queen_match",
        "Không đụng đầm",
        "Cả một trận đến 100 điểm trở lên không ăn đầm bích lần nào",
        "👑",
    ),
    Goal("comeback", "Lội ngược dòng", "Thắng trận sau khi có lúc đứng cuối bảng", "🔄"),
    Goal("no_hints_win", "Tự lực", "Thắng một trận không dùng gợi ý nào", "💪"),
    Goal(
        "checker_clean",
        "Không cần nhắc",
        "Chơi trọn một trận bật Cảnh báo nước đi mà không bị cảnh báo lần nào",
        "✅",
    ),
    # -- counted -------------------------------------------------------------------
    Goal("streak_3", "Ba trận liền", "Thắng 3 trận liên tiếp (trận bỏ dở không tính)", "🔥", 3),
    Goal("matches_10", "Mười trận", "Chơi trọn 10 trận", "🔟", 10),
    Goal("matches_100", "Trăm trận", "Chơi trọn 100 trận", "💯", 100),
    Goal("moons_5", "Năm lần trăng", "Bắn trăng 5 lần", "🌕", 5),
    Goal(
        "variants",
        "Thử mọi luật",
        "Chơi trọn một trận ở mỗi luật: 3 người, 5–7 người, đầm phá cơ, "
        "bắn trăng kiểu khác, J♦ trừ 10",
        "🧭",
        5,
    ),
)
BY_ID = {g.id: g for g in GOALS}
#: The variants of "Thử mọi luật", as :func:`variants_of` names them.
VARIANTS = ("three", "many", "qs_breaks_hearts", "moon", "jd_bonus")


# -- what happened ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HandFacts:
    """A finished hand, as the goals look at it (seats are ints, South 0)."""

    level: str | None  # the difficulty set when it ended
    points: tuple[int, ...]  # after moon scoring
    shooter: int  # -1: nobody shot the moon
    hearts: tuple[int, ...]  # hearts taken per seat
    queen: int  # who took Q♠
    queen_from: int  # who played Q♠
    jack: int  # who took J♦ (-1 when nobody: not in this deal's tricks)
    jd_bonus: bool

    @classmethod
    def of(cls, hand: HandState, result: HandResult, level: str | None) -> HandFacts:
        taken = hand.taken
        queen_at = hand.plays.index(QUEEN_SPADES)
        return cls(
            level=level,
            points=result.points,
            shooter=result.shooter,
            hearts=tuple((mask & HEARTS_MASK).bit_count() for mask in taken),
            queen=next(s for s, mask in enumerate(taken) if mask & QS_BIT),
            queen_from=hand.seat_of_play(queen_at),
            jack=next((s for s, mask in enumerate(taken) if mask & JD_BIT), -1),
            jd_bonus=hand.rules.jd_bonus,
        )


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """A finished match: its rules, every hand's points, the winner, the
    difficulty of each hand, who took Q♠ in each (-1: unknown), the hints used."""

    rules: Rules
    points: tuple[tuple[int, ...], ...]
    winner: int
    levels: tuple[str | None, ...]
    queens: tuple[int, ...]
    hints: int
    #: Cảnh báo nước đi on for every card of South's and never asking (Checker.clean)
    checker_clean: bool = False


@dataclass(frozen=True, slots=True)
class History:
    """The player's saved history: finished matches, finished matches won in a row
    up to the latest, the variants of :data:`VARIANTS` finished, moons shot."""

    matches: int = 0
    streak: int = 0
    variants: frozenset[str] = frozenset()
    moons: int = 0


# -- the conditions ----------------------------------------------------------------------
def hand_goals(h: HandFacts) -> set[str]:
    """The goals a finished hand meets."""
    met: set[str] = set()
    if h.shooter == SOUTH:
        met.add("moon")
    # Stopping a moon: one other seat took Q♠ and every heart but South's, and South
    # took only a few (1 to 3): that seat would have shot the moon without them.
    mine = h.hearts[SOUTH]
    if 1 <= mine <= 3 and h.queen != SOUTH and h.hearts[h.queen] == HEARTS - mine:
        met.add("moon_stopper")
    # Clean: no heart and no Q♠ (and nobody else's moon put 26 on South).
    if mine == 0 and h.queen != SOUTH and h.shooter < 0:
        met.add("clean_hand")
        if h.level == "hard":
            met.add("clean_hand_hard")
    if h.queen_from == SOUTH and h.queen != SOUTH:
        met.add("queen_giver")
    if h.jd_bonus and h.jack == SOUTH:
        met.add("jack_taker")
    return met


def match_goals(m: MatchFacts) -> set[str]:
    """The goals a finished match meets."""
    met = {"first_match"}
    full = m.rules.target >= FULL_MATCH
    if m.checker_clean:
        met.add("checker_clean")
    if full and m.queens and all(0 <= q != SOUTH for q in m.queens):
        met.add("no_queen_match")
    if m.winner != SOUTH:
        return met
    met.add("first_win")
    if m.levels and all(level == "hard" for level in m.levels):
        met.add("win_hard")
    totals = [0] * len(m.points[0]) if m.points else []
    last_at_some_point = False
    for points in m.points:
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        if all(totals[SOUTH] > t for s, t in enumerate(totals) if s != SOUTH):
            last_at_some_point = True
    if full and totals and totals[SOUTH] < 50:
        met.add("win_under_50")
    if last_at_some_point:
        met.add("comeback")
    if m.hints == 0:
        met.add("no_hints_win")
    return met


def progress(history: History) -> dict[str, int]:
    """Each counted goal's count now (may pass its goal)."""
    return {
        "streak_3": history.streak,
        "matches_10": history.matches,
        "matches_100": history.matches,
        "moons_5": history.moons,
        "variants": len(history.variants),
    }


def counted_goals(history: History) -> set[str]:
    return {gid for gid, n in progress(history).items() if n >= BY_ID[gid].goal}


def variants_of(rules: Rules) -> set[str]:
    """The variants of :data:`VARIANTS` a table plays."""
    found: set[str] = set()
    if rules.players == 3:
        found.add("three")
    if rules.players >= 5:
        found.add("many")
    if rules.qs_breaks_hearts:
        found.add("qs_breaks_hearts")
    if rules.moon != ADD_TO_OTHERS:
        found.add("moon")
    if rules.jd_bonus:
        found.add("jd_bonus")
    return found


# -- the database ------------------------------------------------------------------------
def history(conn: Connection, player_id: int) -> History:
    """The player's :class:`History` from the matches and hands tables."""
    over = sa.and_(matches.c.player_id == player_id, matches.c.status == "over")
    rows = conn.execute(
        sa.select(matches.c.winner, matches.c.rules).where(over).order_by(matches.c.id.desc())
    ).all()
    streak = 0
    for winner, _rules in rows:
        if winner != SOUTH:
            break
        streak += 1
    found: set[str] = set()
    for _winner, text in rows:
        try:
            found |= variants_of(Rules.from_json(json.loads(text)))
        except (RulesError, ValueError, TypeError):
            continue  # a row no server wrote
    moons = conn.execute(
        sa.select(sa.func.count()).where(hands.c.player_id == player_id, hands.c.shooter == SOUTH)
    ).scalar_one()
    return History(matches=len(rows), streak=streak, variants=frozenset(found), moons=int(moons))


def queen_takers(conn: Connection, match_id: int) -> list[int]:
    """Who took Q♠ in each finished hand of the match, from the hand records
    (-1 for a record that does not read)."""
    records = conn.execute(
        sa.select(hands.c.record).where(hands.c.match_id == match_id).order_by(hands.c.number)
    ).scalars()
    takers = []
    for text in records:
        try:
            state, _number = read_record(json.loads(text))
            takers.append(next(s for s, mask in enumerate(state.taken) if mask & QS_BIT))
        except Exception:  # a record no server wrote: unknown, not a crash
            takers.append(-1)
    return takers


def unlocked_ids(conn: Connection, player_id: int) -> set[str]:
    return set(
        conn.execute(
            sa.select(achievements.c.achievement).where(achievements.c.player_id == player_id)
        ).scalars()
    )


def record(conn: Connection, loaded: Loaded, saved_before: int) -> list[dict[str, Any]]:
    """Unlock what the hand(s) finished by this action met (``saved_before``: the
    finished hands the database held before it); call after :meth:`Store.save`, in
    its transaction. The goals newly unlocked (:func:`on_table` finds them again)."""
    game = loaded.game
    match_id = loaded.player.match_id
    if game is None or match_id is None or len(game.results) <= saved_before:
        return []
    player_id = loaded.player.id
    level = loaded.player.level
    met = hand_goals(HandFacts.of(game.hand, game.results[-1], level))
    if game.over:
        levels = conn.execute(
            sa.select(hands.c.level).where(hands.c.match_id == match_id).order_by(hands.c.number)
        ).scalars()
        met |= match_goals(
            MatchFacts(
                rules=game.rules,
                points=tuple(r.points for r in game.results),
                winner=game.winner,
                levels=tuple(levels),
                queens=tuple(queen_takers(conn, match_id)),
                hints=game.hints,
                checker_clean=game.checker.clean,
            )
        )
    have = unlocked_ids(conn, player_id)
    if not all(g.id in have for g in GOALS if g.goal > 1):
        met |= counted_goals(history(conn, player_id))
    new = [g for g in GOALS if g.id in met and g.id not in have]
    now = dt.datetime.now(dt.UTC)
    for goal in new:
        conn.execute(
            achievements.insert().values(
                player_id=player_id,
                achievement=goal.id,
                unlocked_at=now,
                match_id=match_id,
                hand=game.hand_no,
            )
        )
    return [describe(g) for g in new]


def on_table(store: Store, player_id: int, match_id: int, hand_no: int) -> list[dict[str, Any]]:
    """The goals unlocked when hand ``hand_no`` of the match ended (the State's
    ``unlocked`` while that hand is on the table), in :data:`GOALS` order."""
    with store.read() as conn:
        ids = set(
            conn.execute(
                sa.select(achievements.c.achievement).where(
                    achievements.c.player_id == player_id,
                    achievements.c.match_id == match_id,
                    achievements.c.hand == hand_no,
                )
            ).scalars()
        )
    return [describe(g) for g in GOALS if g.id in ids]


def describe(goal: Goal) -> dict[str, Any]:
    """A goal as the API shows it, in the request's language."""
    name, condition = goal.name, goal.condition
    if lang.english():
        name, condition = messages_en.ACHIEVEMENTS[goal.id]
    return {"id": goal.id, "name": name, "condition": condition, "icon": goal.icon}


def listing(store: Store, player_id: int, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """``GET /api/achievements``: every goal, locked or unlocked (when), with
    progress for the counted ones; and for the match on the table, the goals
    unlocked in it and how often each seat took Q♠."""
    with store.read() as conn:
        rows = {
            r.achievement: r
            for r in conn.execute(
                sa.select(
                    achievements.c.achievement, achievements.c.unlocked_at, achievements.c.match_id
                ).where(achievements.c.player_id == player_id)
            )
        }
        counts = progress(history(conn, player_id))
        current = conn.execute(
            sa.select(players.c.match_id).where(players.c.id == player_id)
        ).scalar()
        takers = queen_takers(conn, current) if current is not None else []
        rules_text = (
            conn.execute(sa.select(matches.c.rules).where(matches.c.id == current)).scalar()
            if current is not None
            else None
        )
    table = list(seats) if seats is not None else _seats(rules_text)
    queens = dict.fromkeys(table, 0)
    for seat in takers:
        if 0 <= seat < len(table):
            queens[table[seat]] += 1
    listed = []
    for goal in GOALS:
        row = rows.get(goal.id)
        when = None if row is None else row.unlocked_at
        if when is not None and when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)  # SQLite gives naive UTC
        listed.append(
            describe(goal)
            | {
                "unlocked": row is not None,
                "unlocked_at": None if when is None else when.isoformat(),
                "progress": min(counts[goal.id], goal.goal) if goal.id in counts else None,
                "goal": goal.goal if goal.goal > 1 else None,
            }
        )
    this_match = [g.id for g in GOALS if g.id in rows and rows[g.id].match_id == current]
    if current is None:
        this_match = []
    return {"achievements": listed, "match": {"queens": queens, "unlocked": this_match}}


def _seats(rules_text: str | None) -> list[str]:
    try:
        return list(Rules.from_json(json.loads(rules_text or "{}")).seats)
    except (RulesError, ValueError, TypeError):
        return list(Rules().seats)


def levels(store: Store, player_id: int) -> dict[str, dict[str, Any]]:
    """South's points per hand by difficulty (hands saved since 0005 know theirs):
    ``{"easy": {"hands", "points", "average"}, …}``, every level present."""
    with store.read() as conn:
        rows = conn.execute(
            sa.select(hands.c.level, sa.func.count(), sa.func.sum(hands.c.south_points))
            .where(hands.c.player_id == player_id, hands.c.level.is_not(None))
            .group_by(hands.c.level)
        ).all()
    found = {level: (int(n), int(total or 0)) for level, n, total in rows}
    out: dict[str, dict[str, Any]] = {}
    for level in ("easy", "medium", "hard"):
        n, total = found.get(level, (0, 0))
        out[level] = {
            "hands": n,
            "points": total,
            "average": round(total / n, 2) if n else None,
        }
    return out
