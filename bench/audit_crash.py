"""The audit's crash loop (bench/audit.py ``--only crash``): ``kill -9`` under the
traffic of solo players who now and then move to another browser (a transfer), and of
players at public tables (seek, play, react, leave, seek again).

At the end nothing acknowledged may be missing: no client was told a version the
server no longer has (solo players and public rooms alike), every acknowledged card and
pass is in the stored hand of its deal, every stored record replays and its committed
deal is the one its seeds give; no state showed a hand's server seed before the hand
was over; every token moved away is answered 410 ``moved``.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
from audit_checks import (
    ErrorShapes,
    deal_key_of_state,
    fairness_of_record,
    fairness_of_state,
    plays_of_state,
    stored_records,
)
from web import Browser

from hearts.record import validate

#: seconds a public table may show no new version while its match runs before the
#: audit counts it stalled (its turn timer is 30 s)
STALL_SECONDS = 45.0
#: solo actions between two transfers of one client
TRANSFER_EVERY = 60
#: public actions (of all the public clients) between two moves of a public seat
PUBLIC_TRANSFER_EVERY = 25


class Killable(Protocol):
    base: str
    starts: int
    left_behind: int

    def kill(self) -> None: ...
    def start(self, timeout: float = 180) -> None: ...
    def stop(self) -> None: ...


@dataclass
class Crash:
    kills: int = 0
    starts: int = 0
    acknowledged: int = 0
    actions: int = 0  # of which actions (POST/PUT answered 200)
    behind: int = 0  # a client's last acknowledged version ahead of the server's
    lost: int = 0  # an acknowledged state whose cards are not in the stored hand
    hands: int = 0
    bad_hands: int = 0
    transport_errors: int = 0
    refused: int = 0
    failed_starts: int = 0
    left_behind: int = 0  # kills after which a bot worker outlived its server
    unfair: int = 0  # a state or record whose seeds are shown early or do not give its deal
    revealed: int = 0  # hands over whose deal was checked against their seeds
    transfers: int = 0
    public_transfers: int = 0
    moved_ok: int = 0  # an old token answered 410 moved (right after, and at the end)
    moved_bad: int = 0
    transfer_cut: int = 0  # a claim whose answer a kill cut after it was done
    public_actions: int = 0
    public_rooms: int = 0
    public_hands: int = 0  # next hands a public client dealt
    reactions: int = 0
    leaves: int = 0
    stalled: int = 0
    examples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.examples) < 12:
            self.examples.append(text)


def forwarded(i: int, n: int) -> dict[str, str]:
    """An address of its own for client ``i``'s ``n``-th identity: the server trusts
    127.0.0.1 as a proxy, so per-address limits (transfers: 10, then one a minute)
    count each client apart, as real browsers would be."""
    return {"X-Forwarded-For": f"10.{i}.{n // 250}.{n % 250 + 1}"}


async def claim_again(
    c: httpx.AsyncClient, code: str, headers: dict[str, str], out: Crash
) -> httpx.Response:
    """Claim ``code`` as the page does, with a claim id, asking again with the same
    id while a kill cuts the answer: the same id gets the same token back, so a cut
    answer loses nothing (counted in ``transfer_cut``)."""
    body = {"code": code, "claim_id": secrets.token_hex(16)}
    cut = 0
    while True:
        try:
            answer = await c.post("/api/transfer/claim", json=body, headers=headers)
        except httpx.TransportError:
            out.transport_errors += 1
            cut += 1
            await asyncio.sleep(0.2)
            continue
        if answer.status_code >= 500 and cut < 50:  # restarting: the page asks again too
            cut += 1
            await asyncio.sleep(0.2)
            continue
        out.transfer_cut += min(cut, 1)
        return answer


async def move_seat(c: httpx.AsyncClient, seat: _Seat, code: str, i: int, out: Crash) -> None:
    """A public player moves to another browser in the middle of a match: the new
    token holds the same seat, the old one is 410 moved (a kill in between: the old
    headers are kept, or the seat is lost with a cut claim's answer and counted).
    The new token is the seat's as soon as the claim answers, as on the page: a kill
    during the checks after it must not leave the client with the old one."""
    h = seat.h
    n = out.transfers + out.public_transfers + 1
    r = await c.post("/api/transfer", headers={**h, **forwarded(i, n)})
    if r.status_code != 200:
        return
    claim = await claim_again(c, r.json()["code"], forwarded(i, n), out)
    if claim.status_code != 200:
        return
    out.public_transfers += 1
    new = seat.h = {"Authorization": f"Bearer {claim.json()['token']}"}
    gone = await c.get(f"/api/rooms/{code}", headers=h)
    mine = (await c.get(f"/api/rooms/{code}", headers=new)).json()
    if gone.status_code == 410 and mine["you"] is not None:
        out.moved_ok += 1
    else:
        out.moved_bad += 1
        out.note(f"public seat after a transfer: old {gone.status_code}, new you={mine['you']}")


class Solo:
    """One solo page's history: its states answered 200, in order, and its tokens."""

    def __init__(self) -> None:
        self.acks: list[Any] = []
        self.token: str | None = None
        self.old_tokens: list[str] = []


async def crash_run(
    server: Killable, url: str, clients: int, kills: int, seed: int, shapes: ErrorShapes
) -> Crash:
    run = _CrashRun(server, clients, kills, seed, shapes)
    publics = max(4, clients * 2 // 3)
    await asyncio.gather(
        run.killer(),
        *(run.solo(i) for i in range(clients)),
        *(run.public(i) for i in range(publics)),
    )
    out = run.out
    out.starts = server.starts
    out.left_behind = server.left_behind
    await final_checks(server, run.solos, run.rooms_seen, shapes, out, run.check_state)
    server.stop()
    stored_checks(url, run.solos, out)
    return out


@dataclass
class _Seat:
    """A public client's seat as its page knows it (headers: its token's)."""

    h: dict[str, str]
    code: str | None = None
    hands_here: int = 0
    last_change: float = field(default_factory=time.monotonic)
    last_version: int = -1
    last_react: float = 0.0


class _CrashRun:
    """The clients of one crash loop and its killer, sharing what they were told."""

    def __init__(
        self, server: Killable, clients: int, kills: int, seed: int, shapes: ErrorShapes
    ) -> None:
        self.server = server
        self.kills = kills
        self.shapes = shapes
        self.rng = random.Random(seed)
        self.out = Crash()
        self.solos = [Solo() for _ in range(clients)]
        # room code -> highest acknowledged version
        self.rooms_seen: dict[str, int] = defaultdict(int)
        self.stop = asyncio.Event()

    def check_state(self, state: Any, where: str) -> None:
        problem = fairness_of_state(state)
        if problem is not None:
            self.out.unfair += 1
            self.out.note(f"{where}: {problem}")
        elif state["hand"]["phase"] == "done":
            self.out.revealed += 1

    # -- solo clients -------------------------------------------------------------------
    async def refresh(self, b: Browser, me: Solo) -> None:
        while True:
            try:
                b.state = await b.call("state", "GET", "/api/state")
                me.acks.append(b.state)
                return
            except (httpx.TransportError, RuntimeError):
                self.out.transport_errors += 1
                await asyncio.sleep(0.2)

    async def transfer(self, c: httpx.AsyncClient, b: Browser, i: int, me: Solo) -> None:
        """Chuyển sang máy khác: a code, claimed from a new address; the old token
        must be 410 moved from then on, the player's state not behind."""
        out = self.out
        n = len(me.old_tokens) + 1
        r = await c.post("/api/transfer", headers={**b.headers, **forwarded(i, n)})
        if r.status_code != 200:
            out.refused += 1
            return
        old = b.headers["Authorization"]
        claim = await claim_again(c, r.json()["code"], forwarded(i, n), out)
        if claim.status_code != 200:
            out.refused += 1
            return
        out.transfers += 1
        me.old_tokens.append(old.split()[1])
        b.headers = {"Authorization": f"Bearer {claim.json()['token']}"}
        me.token = claim.json()["token"]
        gone = await c.get("/api/state", headers={"Authorization": old})
        if gone.status_code == 410 and gone.json()["error"]["code"] == "moved":
            out.moved_ok += 1
        else:
            out.moved_bad += 1
            out.note(f"old token after a transfer: {gone.status_code} {gone.text[:80]}")

    async def solo(self, i: int) -> None:
        me = self.solos[i]
        async with self.shapes.client(base_url=self.server.base, timeout=30) as c:
            b = Browser(c, defaultdict(list))
            while True:  # a start cut by a kill (or a transfer's answer): a new token
                try:
                    await b.start("easy" if i % 2 else "medium")
                except (httpx.TransportError, RuntimeError):
                    await asyncio.sleep(0.2)
                    continue
                me.token = b.headers["Authorization"].split()[1]
                me.acks.append(b.state)
                await self.play_solo(c, b, i, me)
                return

    async def play_solo(self, c: httpx.AsyncClient, b: Browser, i: int, me: Solo) -> None:
        out = self.out
        since = 0
        while not self.stop.is_set():
            try:
                if since >= TRANSFER_EVERY:
                    since = 0
                    await self.transfer(c, b, i, me)
                    await self.refresh(b, me)
                    continue
                await b.move()
                me.acks.append(b.state)
                out.actions += 1
                since += 1
            except httpx.TransportError:
                out.transport_errors += 1
                await asyncio.sleep(0.1)
                await self.refresh(b, me)
            except RuntimeError:  # e.g. a 409: the page reloads the state
                out.refused += 1
                await self.refresh(b, me)
            await asyncio.sleep(0.005)

    # -- public clients -----------------------------------------------------------------
    async def public(self, i: int) -> None:
        async with self.shapes.client(base_url=self.server.base, timeout=30) as c:
            await self.play_public(c, i, self.rng.random())

    async def new_player(self, c: httpx.AsyncClient, i: int) -> dict[str, str]:
        while True:
            try:
                r = await c.post("/api/players", headers=forwarded(100 + i, 0))
                if r.status_code == 200:
                    return {"Authorization": f"Bearer {r.json()['token']}"}
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)

    async def play_public(self, c: httpx.AsyncClient, i: int, leave_bias: float) -> None:
        seat = _Seat(await self.new_player(c, i))
        while not self.stop.is_set():
            try:
                room = await self.room_of(c, i, seat)
                if room is None:
                    continue
                self.watch(seat, room)
                if not await self.act(c, i, seat, room, leave_bias):
                    continue
            except httpx.TransportError:
                self.out.transport_errors += 1
                await asyncio.sleep(0.2)
            await asyncio.sleep(0.005)

    async def room_of(self, c: httpx.AsyncClient, i: int, seat: _Seat) -> Any:
        """The seat's room, seeking a table first when it has none (None: try again)."""
        out = self.out
        if seat.code is None:
            r = await c.post("/api/public/seek", headers=seat.h, json={"name": f"Audit {i}"})
            if r.status_code == 410:
                out.moved_bad += 1  # a seat lost to a cut claim's answer
                seat.h = await self.new_player(c, i)
                return None
            if r.status_code != 200:
                out.refused += 1
                await asyncio.sleep(1.0)
                return None
            seat.code, room = r.json()["code"], r.json()["room"]
            out.public_rooms += 1
            seat.hands_here = 0
            return room
        got = await c.get(f"/api/rooms/{seat.code}", headers=seat.h)
        if got.status_code == 410:
            out.moved_bad += 1  # a seat lost to a cut claim's answer
            seat.h, seat.code = await self.new_player(c, i), None
            return None
        if got.status_code != 200:
            out.refused += 1
            await asyncio.sleep(0.5)
            return None
        return got.json()

    def watch(self, seat: _Seat, room: Any) -> None:
        """The highest version told, and a match that stopped moving (stalled)."""
        code = seat.code
        assert code is not None
        self.rooms_seen[code] = max(self.rooms_seen[code], room["version"])
        if room["version"] != seat.last_version:
            seat.last_version, seat.last_change = room["version"], time.monotonic()
        elif room["phase"] == "playing" and time.monotonic() - seat.last_change > STALL_SECONDS:
            self.out.stalled += 1
            self.out.note(f"public {code[:6]}: no change for {STALL_SECONDS:g} s")
            seat.last_change = time.monotonic()

    async def act(
        self, c: httpx.AsyncClient, i: int, seat: _Seat, room: Any, leave_bias: float
    ) -> bool:
        """The seat's next step in its room: a move, or a reaction, a leave or a wait
        (False: the client loops again at once)."""
        out, code, h = self.out, seat.code, seat.h
        assert code is not None
        if room["phase"] == "over":
            seat.code = None
            return False
        state = room.get("state")
        if state is None:  # the lobby, or queued for a computer's seat
            await asyncio.sleep(0.2)
            return False
        self.check_state(state, f"public {code[:6]} v{room['version']}")
        body, path = public_move(state)
        if path is None and time.monotonic() - seat.last_react > 4.0:
            seat.last_react = time.monotonic()
            r = await c.post(f"/api/public/{code}/react", headers=h, json={"reaction": "like"})
            out.reactions += r.status_code == 200
            return False
        if path is None and seat.hands_here >= 1 and self.rng.random() < 0.01 + leave_bias / 50:
            r = await c.post(f"/api/public/{code}/leave", headers=h)
            if r.status_code == 200:
                out.leaves += 1
                seat.code = None
            return False
        if path is None:
            await asyncio.sleep(0.05)
            return False
        r = await c.post(f"/api/rooms/{code}/{path}", headers=h, json=body)
        if r.status_code == 200:
            out.public_actions += 1
            if out.public_actions % PUBLIC_TRANSFER_EVERY == 0:
                await move_seat(c, seat, code, 100 + i, out)
            if path == "next-hand":
                seat.hands_here += 1
                out.public_hands += 1
            self.rooms_seen[code] = max(self.rooms_seen[code], r.json()["version"])
        else:
            out.refused += 1
        return True

    # -- the killer ---------------------------------------------------------------------
    async def killer(self) -> None:
        out, server = self.out, self.server
        for _ in range(self.kills):
            # Under traffic: some actions since the restart, then a random moment.
            since = out.actions
            deadline = time.perf_counter() + 30
            while out.actions < since + 20 and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            await asyncio.sleep(self.rng.uniform(0.0, 1.0))
            server.kill()
            out.kills += 1
            for attempt in range(3):
                try:
                    await asyncio.to_thread(server.start)
                    break
                except RuntimeError as exc:
                    out.failed_starts += 1
                    out.note(f"restart failed: {str(exc)[-200:]}")
                    if attempt == 2:
                        raise
        await asyncio.sleep(1.0)
        self.stop.set()


def public_move(state: Any) -> tuple[dict[str, Any], str | None]:
    """A public seat's next action, as the page sends it (None: nothing to do)."""
    hand = state["hand"]
    v = {"version": state["version"]}
    if state["match"]["over"]:
        return v, None
    if hand["phase"] == "done":
        return v, "next-hand"
    if hand["phase"] == "pass" and hand["passed"] is None:
        return {**v, "cards": hand["cards"][-hand["pass_count"] :]}, "pass"
    if hand["phase"] == "play" and hand["turn"] == "S" and hand["legal"]:
        return {**v, "card": hand["legal"][len(hand["legal"]) // 2]}, "play"
    return v, None


async def final_checks(
    server: Killable,
    solos: list[Solo],
    rooms_seen: dict[str, int],
    shapes: ErrorShapes,
    out: Crash,
    check_state: Any,
) -> None:
    """The server as it is now, against what each client was told."""
    async with shapes.client(base_url=server.base, timeout=30) as c:
        for i, me in enumerate(solos):
            for s in me.acks:
                check_state(s, f"solo {i} v{s['version']}")
            for old in me.old_tokens:
                gone = await c.get("/api/state", headers={"Authorization": f"Bearer {old}"})
                if gone.status_code == 410:
                    out.moved_ok += 1
                else:
                    out.moved_bad += 1
                    out.note(f"solo {i}: a token moved away answers {gone.status_code}")
            if me.token is None or not me.acks:
                continue  # its player moved with a claim's answer a kill cut
            now = (
                await c.get("/api/state", headers={"Authorization": f"Bearer {me.token}"})
            ).json()
            last = max(me.acks, key=lambda s: s["version"])
            if last["version"] > now["version"]:
                out.behind += 1
                out.note(f"solo {i}: told v{last['version']}, has {now['version']}")
        token = (await c.post("/api/players", headers=forwarded(250, 0))).json()["token"]
        viewer = {"Authorization": f"Bearer {token}"}
        for code, version in rooms_seen.items():
            now = (await c.get(f"/api/rooms/{code}", headers=viewer)).json()
            if version > now["version"]:
                out.behind += 1
                out.note(f"public {code[:6]}: told v{version}, has {now['version']}")


def stored_checks(url: str, solos: list[Solo], out: Crash) -> None:
    """Every stored record replays with its committed deal; every acknowledged solo
    state's plays and pass are in the stored hand of its deal."""
    by_deal: dict[frozenset[str], list[dict[str, Any]]] = defaultdict(list)
    for row in stored_records(url):
        try:
            validate(row["record"])
        except Exception as exc:
            out.bad_hands += 1
            out.note(f"{row['table']} record does not replay: {exc}")
            continue
        data = json.loads(row["record"])
        problem = fairness_of_record(data, finished=row["table"] == "hands")
        if problem is not None:
            out.unfair += 1
            out.note(f"{row['table']} record: {problem}")
        if row["table"] == "hands":
            out.hands += 1
        by_deal[frozenset(data["deal"]["S"])].append(data)
    for me in solos:
        for s in me.acks:
            out.acknowledged += 1
            plays = plays_of_state(s)
            passed = set(s["hand"]["passed"] or [])
            ok = any(
                r["plays"][: len(plays)] == plays
                and (not passed or set(r["passes"].get("S", [])) == passed)
                for r in by_deal.get(deal_key_of_state(s), [])
            )
            if not ok:
                out.lost += 1
                out.note(f"lost: v{s['version']} plays {plays} passed {passed}")
