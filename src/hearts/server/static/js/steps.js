// The steps between two States of one hand: the snapshots a page shows while the
// cards played since the earlier State land one at a time (single player and rooms).
// Nothing here decides what is legal: every snapshot is cut from the later State.
import { T } from "./i18n.js";
import { now, sleep } from "./dom.js";

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
