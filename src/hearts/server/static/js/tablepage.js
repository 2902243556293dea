// One page controller for every table (the solo table: main.js; a room, a public
// table: room.js): the States it is sent shown one card at a time (the steps below) at the
// mode's pace, the hand's controller (controller.js), the message line and its flash,
// the button block, the moon's choice. It decides nothing: it paints the server's State.
// A transport carries the actions and brings the updates: api.js's SoloTransport
// (REST; the page paces the computers, one step per card) or live.js's RoomLink (the
// socket or long poll; the server paces). Its act(what, body, newest) → the update
// after a seat's action; run(page, call, still): an action's life, each update given
// to page.receive; still(what, body, s), optional: a 409's retry test; stuck, refresh()
// and after(page), optional: the retry button and an idle page. The mode (main.js's
// SOLO, room.js's RoomPage) says the rest: stateOf(update), accept(update), arrive(update)
// (the State to draw, or null: another screen), onTable(), pace(), holdOnOpen, the
// message line's words, played(s, p), allows (the coach's buttons), hinted(s),
// beforePlay(s, card, play) (a tap's card goes through it: play(card, extra) sends it),
// flashPerVersion, mergeNews, takeBack, waitText, paint(s, busy), busyChanged().
import * as fairness from "./fairness.js";
import { HandController, announce } from "./controller.js";
import { T, SEAT_NAME, signed } from "./i18n.js";
import { $, drawnLater, markBusy, now, paced, reducedMotion, sleep } from "./dom.js";

// The steps between two States of one hand: the snapshots a page shows while the
// cards played since the earlier State land one at a time (single player and rooms).
// Nothing here decides what is legal: every snapshot is cut from the later State.

// sound.js is asked for once the first hand is on the table (loadSound: main.js), not
// before the first card (bench/page_results.md): no sound until it is here
let sound = null;
export const loadSound = () => import("./sound.js").then((m) => (sound = m.sound));

export function playedSeq(s) {
  const h = s.hand;
  return [...(h.tricks || []).flatMap((t) => t.cards), ...(h.trick || [])];
}

export function sameHand(a, b) {
  return a && b && a.match.hand_number === b.match.hand_number &&
    (a.match.hands || []).length === (b.match.hands || []).length - (b.hand.phase === "done" && a.hand.phase !== "done" ? 1 : 0);
}

// Snapshot of the table after the k-th card of next's sequence has been played. The
// rule facts are the server's: which card broke hearts (hand.broken_at, an index in
// that sequence) and the points each seat has taken after each trick (tricks[].taken).
export function intermediate(prev, next, seq, k, cleared) {
  const ph = prev.hand, nh = next.hand;
  const upto = new Set(seq.slice(0, k).map((p) => p.card));
  const later = seq.slice(k);
  const n = next.seats.length;
  const ti = Math.floor((k - 1) / n);
  const complete = k % n === 0;
  const tricks = (nh.tricks || []).slice(0, Math.floor(k / n));
  const counts = { ...nh.counts };
  for (const p of later) counts[p.seat] = (counts[p.seat] || 0) + 1;
  const last = tricks[tricks.length - 1];
  const taken = last ? { ...last.taken } : Object.fromEntries(next.seats.map((seat) => [seat, 0]));
  const cards = ph.phase === "play" ? (ph.cards || []).filter((c) => !upto.has(c)) : (nh.cards || []);
  const trick = complete && cleared ? [] : seq.slice(ti * n, k);
  return {
    ...next,
    match: prev.match,
    hand: {
      ...nh,
      phase: "play",
      cards,
      legal: [],
      illegal_reasons: {},
      // nobody is to play while a finished trick is held on the table
      turn: complete && !cleared ? null : later.length ? later[0].seat : (nh.phase === "play" ? nh.turn : null),
      trick,
      trick_winner: complete && !cleared && tricks[ti] ? tricks[ti].winner : null,
      tricks,
      counts,
      taken,
      // as the server has it: broken once the card that broke hearts was played
      hearts_broken: typeof nh.broken_at === "number" && nh.broken_at < k,
      mark_received: ph.phase === "play" ? ph.mark_received && k < n : nh.mark_received,
      points: null,
      moon: null,
      moon_scoring: null,
      moon_choice: null,
      auto_finished: false,
    },
  };
}

// present(prev, next): show the way from `prev` (on screen) to `next`, one card at a
// time, the others' cards `gapMs()` apart, a finished trick held `holdMs()`; resolves
// once the last card has landed. `played(next, p)` words a play for the live region.
export function makePresenter({ paint, announce, names, gapMs, holdMs, flightMs, played = null }) {
  let lastCardAt = 0;
  const say = played || ((next, p) => T.played(names(next)[p.seat], p.card));
  return async function present(prev, next) {
    if (!prev || !sameHand(prev, next) || prev.hand.phase === "pass" && next.hand.phase === "pass") {
      paint(next);
      return;
    }
    const a = playedSeq(prev), b = playedSeq(next);
    const prefixOk = a.length <= b.length && a.every((p, i) => b[i].card === p.card);
    if (!prefixOk || a.length === b.length) { paint(next); return; }
    const fresh = b.slice(a.length);
    const n = next.seats.length;
    let base = prev;
    let shownSoFar = prev;
    if (prev.hand.phase !== "play") base = { ...next, hand: { ...next.hand, phase: "play", cards: next.hand.cards } };
    for (let i = 0; i < fresh.length; i++) {
      const k = a.length + i + 1;
      if (fresh[i].seat !== next.seats[0]) {
        const wait = lastCardAt + gapMs() - now();
        if (wait > 0) await sleep(wait);
      }
      const wasBroken = !!(shownSoFar && shownSoFar.hand.hearts_broken);
      shownSoFar = intermediate(base, next, b, k, false);
      paint(shownSoFar);
      sound?.play("card");
      if (fresh[i].card === "QS") sound?.play("queen");
      if (!wasBroken && shownSoFar.hand.hearts_broken) sound?.play("hearts");
      announce(say(next, fresh[i]));
      lastCardAt = now();
      if (k % n === 0) {
        const t = next.hand.tricks[k / n - 1];
        if (t) announce(T.tookTrick(names(next)[t.winner], t.points));
        sound?.play("trick");
        await sleep(holdMs());
        if (i < fresh.length - 1 || next.hand.phase !== "done") {
          paint(intermediate(base, next, b, k, true));
        }
        lastCardAt = now() - gapMs() / 2; // next lead comes a little sooner
      }
    }
    paint(next);
    // stay busy until the last card has landed
    const rest = lastCardAt + flightMs() - now();
    if (rest > 0) await sleep(rest);
  };
}

const names = (s) => (s && s.names) || SEAT_NAME;
const FLASH_MS = 4000;

export class TablePage {
  constructor({ transport, mode }) {
    this.transport = transport;
    this.mode = mode;
    this.newest = null;     // the update received last (a State, or a room's Room)
    this.onScreen = null;   // the update shown last (the table may lag while cards land)
    this.shown = null;      // the State snapshot on the table
    this.acting = false;    // an action of the player's under way
    this.presenting = false;
    this.pumping = null;    // while presenting: the promise of the updates being shown
    this.paintedBusy = null;
    this.flash = null;      // {text, kind, until, version}
    this.moonChoice = null; // moonchoice.js once here
    this.hand = new HandController({
      current: () => this.current(),
      busy: () => this.busy(),
      say: (text, kind) => this.say(text, kind),
      hush: () => { this.flash = null; },
      repaint: () => this.repaint(),
      play: (card) => this.play(card),
      pass: (cards) => this.pass(cards),
      takeBack: mode.takeBack,
      waitText: mode.waitText,
    });
    this.present = makePresenter({
      paint: (s) => this.paint(s),
      announce,
      names,
      gapMs: () => paced(this.mode.pace().gap),
      holdMs: () => paced(this.mode.pace().hold),
      flightMs: () => (reducedMotion() ? 0 : this.mode.pace().flight),
      played: mode.played ? (s, p) => mode.played(s, p) : null,
    });
    $("#next-hand").addEventListener("click", () => this.nextHand());
    $("#retry").addEventListener("click", () => this.act(() => this.transport.refresh()));
  }

  // ------------------------------------------------------------ updates
  current() { return this.newest ? this.mode.stateOf(this.newest) : null; }
  version() { return this.newest ? this.newest.version : 0; }
  busy() { return this.acting || this.presenting; }

  // An update from the transport (an action's answer, a step, a push): shown after
  // those before it; the promise resolves once it is on the table.
  receive(update) {
    if (!update || (this.mode.accept && !this.mode.accept(update))) return this.settled();
    this.newest = update;
    if (!this.presenting) this.pumping = this.drain();
    return this.pumping;
  }

  // The newest update, shown with the next one (a State read while the table waits).
  note(update) { this.newest = update; }

  // The newest State and the snapshot on the table changed in place (a setting).
  amend(latest, shown) {
    const was = this.newest;
    this.newest = latest(was);
    if (this.onScreen === was) this.onScreen = this.newest;
    if (this.shown) this.shown = shown(this.shown);
    this.repaint();
  }

  settled() { return this.presenting ? this.pumping : Promise.resolve(); }

  async drain() {
    this.presenting = true;
    this.busyChanged();
    try {
      while (this.newest !== this.onScreen) {
        const update = this.newest;
        const s = await this.mode.arrive(update);
        if (s) await this.showState(s);
        this.onScreen = update;
      }
    } finally {
      this.presenting = false;
      this.busyChanged();
    }
  }

  async showState(next) {
    const was = this.shown;
    if (was && next.match.hand_number !== was.match.hand_number) this.hand.reset();
    if (!was && this.mode.holdOnOpen) await this.holdOnOpen(next);
    await this.present(this.shown, next);
  }

  // Opened right after a trick was taken (nobody has led the next one): the trick is
  // held on the table as if it had just been played, then cleared.
  async holdOnOpen(s) {
    const h = s.hand;
    if (h.phase !== "play" || (h.trick || []).length || !(h.tricks || []).length) return;
    const seq = playedSeq(s);
    this.paint(intermediate(s, s, seq, seq.length, false));
    await sleep(paced(this.mode.pace().hold));
  }

  // The first State of a page (opened or reloaded): busy from its first paint until
  // the transport has done what follows (a solo table's computers move on); shown()
  // runs once it is on the table.
  async open(first, shown = () => {}) {
    if (this.kept) { this.kept = false; this.shown = null; delete document.body.dataset.kept; }
    this.acting = true;
    await this.receive(first);
    shown();
    this.acting = false;
    await this.act(null);
  }

  // A State kept from an earlier visit, drawn while the server cannot be reached:
  // busy (nothing may be done) until open() draws the server's own State.
  showKept(s) {
    this.kept = true;
    this.acting = true;
    document.body.dataset.kept = "true";
    this.paint(s);
  }

  // ------------------------------------------------------------ actions
  // One of the player's actions, call(version) → the update after it (none: only
  // what the transport does next); the page is busy meanwhile. still(update): after
  // a 409 stale, whether the action still stands (a room's transport sends it again).
  async act(call, still = () => false) {
    if (this.busy()) {
      if (call) this.say(this.mode.waitText, "info");
      return;
    }
    this.acting = true;
    this.transport.stuck = false;
    this.busyChanged();
    try {
      await this.transport.run(this, call, still);
    } finally {
      this.acting = false;
      const v = this.version();
      if (this.mode.flashPerVersion && this.flash && this.flash.version !== v) this.flash = null;
      this.busyChanged();
      await this.settled();
      if (call) this.placeFocus();
      if (this.transport.after) this.transport.after(this);
    }
  }

  // A seat's action ("play", "pass", "moon", "next-hand"); then(): once answered.
  seat(what, body, then = () => {}) {
    const still = this.transport.still ? this.transport.still(what, body, this.current()) : undefined;
    return this.act(async (v) => {
      const got = await this.transport.act(what, { version: v, ...body }, this.newest);
      then();
      return got;
    }, still);
  }

  play(card) {
    const send = (c, extra = {}) => this.seat("play", { card: c, ...extra });
    if (this.mode.beforePlay) this.mode.beforePlay(this.current(), card, send);
    else send(card);
  }
  pass(cards) { this.seat("pass", { cards }, () => this.hand.passed()); }
  chooseMoon(how) { this.seat("moon", { choice: how }); }
  nextHand() { this.seat("next-hand", {}, () => this.hand.reset()); }

  // After the player's action: where the next one is, if focus was lost.
  placeFocus() {
    if (this.shown && this.mode.onTable()) this.hand.placeFocus(this.shown);
  }

  // ------------------------------------------------------------ painting
  busyChanged() {
    const busy = this.busy();
    markBusy(busy);
    if (this.mode.busyChanged) this.mode.busyChanged();
    if (busy !== this.paintedBusy) this.repaint();
  }

  repaint() { if (this.shown) this.paint(this.shown); }

  // A word on the message line for a few seconds ("warn", or "info": news).
  say(text, kind = "warn") {
    const s = this.current();
    this.flash = { text, kind, until: now() + FLASH_MS, version: s ? s.version : null };
    this.repaint();
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => this.repaint(), FLASH_MS + 100);
  }

  paint(s) {
    if (!s || !this.mode.onTable()) return;
    this.shown = s;
    const busy = this.busy();
    this.paintedBusy = busy;
    const hinted = this.mode.hinted ? this.mode.hinted(s) : null;
    this.hand.paint(s, { busy, hinted });
    this.paintMessage(s);
    this.paintButtons(s, busy, !!hinted);
    this.paintMoon(s, busy);
    fairness.look(s);
    fairness.paint(s);
    if (this.mode.paint) this.mode.paint(s, busy);
  }

  // The message line: what the table waits for, or the flash over it.
  paintMessage(s) {
    const msg = $("#message");
    const m = this.kept ? { text: T.kept } : this.flashed(this.message(s));
    msg.textContent = m.text;
    msg.className = m.kind || "";
  }

  message(s) {
    const h = s.hand, n = names(s), mode = this.mode;
    if (s.match.over) {
      const text = T.matchDone + (s.match.winner ? " " + T.winner(n[s.match.winner], signed(s.match.totals[s.match.winner])) : "");
      return { text: mode.matchOver ? `${text} ${mode.matchOver(s)}` : text };
    }
    if (h.phase === "pass") {
      if (h.passed) return mode.passesAwaited(s);
      return mode.choosing(s, `${T.passHint(h.pass_direction, n[h.pass_to], h.pass_count)} · ${T.chosen(this.hand.selected.size, h.pass_count)}`);
    }
    if (h.phase === "moon_choice") return { text: T.moonChoose, kind: "turn" };
    if (h.phase === "done") return mode.handOver(s);
    // the hold after a trick: who took it, before anyone leads the next
    if (h.trick_winner && (h.tricks || []).length) return { text: T.tookTrick(n[h.trick_winner], h.tricks[h.tricks.length - 1].points) };
    if (h.turn === s.seats[0]) return mode.yourTurn(s);
    if (h.turn) return mode.othersTurn(s, h.turn);
    return { text: "" };
  }

  flashed(m) {
    const f = this.flash, s = this.current();
    if (!f || now() >= f.until) return m;
    if (this.mode.flashPerVersion && f.version !== (s ? s.version : null)) return m;
    // news of the others never hides that it is the player's turn
    // ("Tuấn: Hay quá! Đến lượt bạn": no full stop after the news' own "!")
    if (this.mode.mergeNews && f.kind === "info" && m.kind === "turn") return { text: `${f.text}${/[.!?…]$/.test(f.text) ? "" : "."} ${m.text}`, kind: "turn" };
    return { text: f.text, kind: f.kind || "warn" };
  }

  // The buttons under the table besides the hand's (controller.js paints "Chuyền" and
  // "Đi lại"): the coach's where the mode allows them, the next hand, the retry.
  paintButtons(s, busy, hinted) {
    const h = s.hand, over = s.match.over, allows = this.mode.allows || {};
    const passing = h.phase === "pass" && !h.passed;
    const choosing = !over && (passing || (h.phase === "play" && h.turn === s.seats[0]));
    const hint = $("#hint-button");
    hint.hidden = !(allows.hint && choosing);
    hint.disabled = busy || hinted;
    $("#review-open").hidden = !(allows.review && h.phase === "done");
    const next = $("#next-hand");
    next.hidden = !(h.phase === "done" && h.points && !over);
    next.disabled = busy;
    const fresh = $("#new-match");
    fresh.hidden = !(allows.newMatch && over);
    fresh.disabled = busy;
    $("#retry").hidden = !this.transport.stuck;
  }

  // The moon's choice (moonchoice.js, loaded when a moon is to be chosen).
  paintMoon(s, busy) {
    if (this.moonChoice) this.moonChoice.renderMoonChoice(s, { busy, choose: (how) => this.chooseMoon(how) });
    else if (s.hand.phase === "moon_choice") {
      drawnLater(import("./moonchoice.js").then((m) => { this.moonChoice = m; this.repaint(); }));
    }
  }
}
