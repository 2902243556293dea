// The table: fed a display snapshot (same shape as the server State, see
// docs/api.md), it draws seats, fans of backs, the trick, marks and the hand,
// and animates what changed since the previous snapshot (like chessground).
import { SEAT_NAME, T, cardShort, rulesLine, signed, SUIT_SYMBOL, RANK_LABEL, cardSpoken, isRed, isDefaultRules } from "./i18n.js";
import { $, el, drawnLater, reducedMotion } from "./dom.js";
import { placeRing } from "./placement.js";

// Card drawing: plain HTML + CSS, text symbols with U+FE0E (never emoji).
// The inside of a card (shared by hand buttons, table cards and mini cards). Only the
// top corner is text; the pip, the court letter and the bottom corner repeat it as CSS
// content (data-t), so a card's visible text is what it shows once ("Q♠"), and a
// button's name can begin with it (voice control taps a card by what it shows).
function drawn(cls, text) {
  const e = el("span", cls);
  e.dataset.t = text;
  return e;
}

export function cardFace(card) {
  const rank = card[0], suit = card[1];
  const face = el("span", "face " + (isRed(card) ? "red" : "black"));
  face.setAttribute("aria-hidden", "true");
  const idx = el("span", "idx");
  idx.append(el("span", "r", RANK_LABEL[rank]), el("span", "s", SUIT_SYMBOL[suit]));
  face.append(idx);
  if ("JQK".includes(rank)) {
    const court = el("span", "court");
    court.append(drawn("cr", RANK_LABEL[rank]), drawn("cs", SUIT_SYMBOL[suit]));
    face.append(court);
  } else {
    face.append(drawn("pip" + (rank === "A" ? " ace" : ""), SUIT_SYMBOL[suit]));
  }
  const idx2 = el("span", "idx idx2");
  idx2.append(drawn("r", RANK_LABEL[rank]), drawn("s", SUIT_SYMBOL[suit]));
  face.append(idx2);
  return face;
}

// A card of South's hand: a real <button> with data-card and a Vietnamese name.
export function handCardButton(card) {
  const b = el("button", "card hand-card");
  b.type = "button";
  b.dataset.card = card;
  // what it shows, then its spoken name: "Q♠, Q bích"
  b.setAttribute("aria-label", `${RANK_LABEL[card[0]]}${SUIT_SYMBOL[card[1]]}, ${cardSpoken(card)}`);
  b.append(cardFace(card));
  return b;
}

// A face-up card lying on the table.
export function tableCard(card, seat) {
  const d = el("div", "card table-card");
  d.dataset.card = card;
  d.dataset.seat = seat;
  d.setAttribute("role", "img");
  d.setAttribute("aria-label", cardSpoken(card));
  d.append(cardFace(card));
  return d;
}

export function cardBack(cls = "") {
  const d = el("span", "card back " + cls);
  d.setAttribute("aria-hidden", "true");
  return d;
}

// Inline text form, e.g. for the tricks panel: "Q♠︎" coloured.
export function cardText(card) {
  const s = el("span", "ctext " + (isRed(card) ? "red" : "black"), RANK_LABEL[card[0]] + SUIT_SYMBOL[card[1]]);
  s.title = cardSpoken(card);
  return s;
}

// result.js is asked for when a hand's end is on the table, not before the first card
// (bench/page_results.md); #result is hidden until then
let result = null;

const FOUR = ["S", "W", "N", "E"];

export class TableView {
  constructor() {
    this.table = $("#table");
    this.handEl = $("#hand");
    this.trickEl = $("#trick");
    this.handButtons = new Map(); // card -> button (kept across renders: focus survives)
    this.prevTrickKey = "";
    this.prevCounts = {};
    this.snap = null;
    this.ui = {};
    window.addEventListener("resize", () => { this.layoutHand(); this.placeRing(); });
    // the table's size may change after the window's (a phone turned upright: the top
    // bar takes back "Trận mới" and grows): the seats placed for the old size reached
    // out of it
    if (window.ResizeObserver) new ResizeObserver(() => this.placeRing()).observe(this.table);
  }

  speed() {
    const quick = this.snap && this.snap.settings && this.snap.settings.quick;
    return quick ? 0.55 : 1;
  }

  // ---- whole render -------------------------------------------------------
  render(snap, ui) {
    this.snap = snap;
    this.ui = ui;
    const h = snap.hand;
    // Remember where South's cards are before the hand is redrawn, so that a card
    // South just played flies from its place in the hand (no flight, no measuring:
    // each measure lays the page out again).
    const handRects = new Map();
    if (!reducedMotion()) for (const [card, b] of this.handButtons) handRects.set(card, b.getBoundingClientRect());

    this.layoutSeats(snap);
    this.placed = false; // the seats are placed once a render (placeRing), at its end
    this.renderSeats(snap);
    this.renderRules(snap);
    this.renderTrick(snap, handRects);
    this.renderMarks(snap);
    this.renderResult(snap);
    this.renderHand(snap, ui);
    this.renderLastTrick(snap, ui);
    this.placeRing(); // "Vòng trước" and the rules badge are drawn now
    this.painted = true;
  }

  // ---- seats --------------------------------------------------------------
  // The seats around the table, in play order from South (bottom) to its left:
  // at four they sit S W N E (the CSS places them); at 3, 5, 6 or 7 they sit on an
  // ellipse, and so do their cards of the trick, each with the seat's name.
  layoutSeats(snap) {
    const seats = snap.seats || FOUR;
    const key = seats.join(",");
    if (this.seatKey === key) return;
    this.seatKey = key;
    this.seats = seats;
    this.me = seats[0];
    const n = seats.length;
    const ring = key !== FOUR.join(",");
    this.ring = ring;
    this.table.classList.toggle("ring", ring);
    for (let k = 3; k <= 7; k++) this.table.classList.toggle(`players-${k}`, n === k);
    for (const old of this.table.querySelectorAll(".seat")) old.remove();
    this.trickEl.replaceChildren();
    this.trickEl.classList.toggle("ring", ring);
    const before = $(".marks", this.table);
    seats.forEach((seat, k) => {
      const pos = ring ? (k === 0 ? "S" : "ring") : seat;
      const root = document.createElement("div");
      root.className = `seat seat-${pos}`;
      root.dataset.seat = seat;
      const plate = document.createElement("div");
      plate.className = "plate";
      const name = document.createElement("span");
      name.className = "name";
      const total = document.createElement("span");
      total.className = "total";
      total.title = T.totalTitle;
      total.textContent = "0";
      const taken = document.createElement("span");
      taken.className = "taken";
      taken.hidden = true;
      plate.append(name, total, taken);
      if (k > 0) {
        const count = document.createElement("span");
        count.className = ring ? "count" : "count sr-only";
        count.title = T.cardsInHand;
        plate.append(count);
        if (!ring) {
          const fan = document.createElement("div");
          fan.className = "fan";
          fan.setAttribute("aria-hidden", "true");
          root.append(fan);
        }
      }
      const hint = document.createElement("div");
      hint.className = "seat-hint";
      hint.hidden = true;
      root.append(plate, hint);
      const slot = document.createElement("div");
      slot.className = `slot slot-${pos}`;
      slot.dataset.slot = seat;
      if (ring) {
        // Seat k of n: clockwise from the bottom, i.e. to South's left first.
        const a = (2 * Math.PI * k) / n;
        const x = -Math.sin(a), y = Math.cos(a);
        if (k > 0) {
          root.dataset.x = String(50 + 41 * x);
          root.dataset.y = String(47 + 38 * y);
        }
        const label = document.createElement("span");
        label.className = "slot-name";
        slot.append(label);
      }
      this.table.insertBefore(root, before);
      this.trickEl.append(slot);
    });
  }

  renderRules(snap) {
    const badge = $("#rules-badge");
    const r = snap.rules;
    const show = !!r && !isDefaultRules(r);
    badge.hidden = !show;
    badge.textContent = show ? rulesLine(r) : "";
    badge.title = show ? T.rulesBadge : "";
  }

  renderSeats(snap) {
    const h = snap.hand;
    const names = snap.names || SEAT_NAME;
    for (const seat of this.seats) {
      const root = $(`.seat[data-seat="${seat}"]`, this.table);
      if (!root) continue;
      $(".name", root).textContent = names[seat] || SEAT_NAME[seat];
      $(".total", root).textContent = signed(snap.match.totals[seat]);
      const done = h.phase === "done" && h.points;
      const taken = done ? h.points[seat] : h.taken ? h.taken[seat] : 0;
      const tk = $(".taken", root);
      tk.textContent = signed(taken, true);
      tk.hidden = !taken;
      tk.title = done ? T.handPointsTitle(taken) : taken ? T.takenSoFar(taken) : "";
      const isTurn = h.phase === "play" && h.turn === seat;
      root.classList.toggle("turn", isTurn);
      const passTarget = h.phase === "pass" && !h.passed && h.pass_to === seat;
      root.classList.toggle("pass-target", passTarget);
      const hint = $(".seat-hint", root);
      if (hint) {
        hint.textContent = passTarget ? T.receives(h.pass_count) : isTurn && seat !== this.me ? T.playing : "";
        hint.hidden = !hint.textContent;
      }
      const fan = $(".fan", root);
      if (fan) this.renderFan(fan, h.counts ? h.counts[seat] : 0);
      const cnt = $(".count", root);
      if (cnt) this.renderCount(cnt, h.counts ? h.counts[seat] : null);
      const label = $(`.slot[data-slot="${seat}"] .slot-name`, this.trickEl);
      if (label) label.textContent = names[seat] || seat;
    }
  }

  // "7 lá": the number, and the word apart, which a narrow plate (six or seven seats
  // on a small screen, layout.css) shows as a small card instead ("7 cards" in English
  // made the plates beside the trick wider than the room left them)
  renderCount(cnt, n) {
    const text = n === null ? "" : T.cardsCount(n);
    const lead = n === null ? "" : String(n);
    if (!lead || !text.startsWith(lead)) { cnt.textContent = text; return; }
    const word = document.createElement("span");
    word.className = "count-word";
    word.textContent = text.slice(lead.length);
    cnt.replaceChildren(lead, word);
  }

  // the loose pieces (the ring's plates, the marks, "Vòng trước"): placement.js
  placeRing() { placeRing(this); this.placed = true; }

  renderFan(fan, n) {
    fan.classList.toggle("empty", !n);
    if (fan.dataset.n === String(n)) return;
    fan.dataset.n = String(n);
    fan.replaceChildren();
    const inner = document.createElement("span");
    inner.className = "fan-inner";
    const spread = Math.min(6, 72 / Math.max(n, 1));
    for (let i = 0; i < n; i++) {
      const b = cardBack("mini-back");
      const a = (i - (n - 1) / 2) * spread;
      b.style.transform = `rotate(${a}deg)`;
      inner.append(b);
    }
    fan.append(inner);
  }

  // ---- the trick in the middle -------------------------------------------
  renderTrick(snap, handRects) {
    const h = snap.hand;
    const trick = h.trick || [];
    const winner = h.trick_winner || null;
    const motion = !reducedMotion();
    const dur = 260 * this.speed();
    const present = new Set(trick.map((p) => p.card));

    // Cards that left the table: sweep them to the winner of the trick, then drop.
    for (const c of [...this.trickEl.querySelectorAll(".table-card:not(.leaving)")]) {
      if (present.has(c.dataset.card)) continue;
      c.classList.add("leaving");
      c.removeAttribute("data-card");
      c.removeAttribute("data-seat");
      const to = this.lastWinner ? this.seatAnchor(this.lastWinner) : null;
      if (motion && to) {
        const r = c.getBoundingClientRect();
        const dx = to.x - (r.left + r.width / 2), dy = to.y - (r.top + r.height / 2);
        const anim = c.animate(
          [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 }],
          { duration: 300 * this.speed(), easing: "ease-in", fill: "forwards" });
        anim.onfinish = () => c.remove();
        setTimeout(() => c.remove(), 1000);
      } else {
        c.remove();
      }
    }
    this.lastWinner = winner || this.lastWinner;
    if (!trick.length) this.lastWinner = null;
    if (winner) this.lastWinner = winner;

    for (const p of trick) {
      let c = this.trickEl.querySelector(`.table-card[data-card="${p.card}"]:not(.leaving)`);
      if (!c) {
        c = tableCard(p.card, p.seat);
        c.setAttribute("aria-label", T.played((snap.names || SEAT_NAME)[p.seat] || p.seat, p.card));
        const slot = $(`.slot[data-slot="${p.seat}"]`, this.trickEl);
        slot.prepend(c);
        if (motion) {
          let from = null;
          if (p.seat === this.me && handRects.has(p.card)) {
            const r = handRects.get(p.card);
            from = { x: r.left + r.width / 2, y: r.top + r.height / 2, s: r.width / c.getBoundingClientRect().width };
          } else {
            const a = this.seatAnchor(p.seat);
            if (a) from = { ...a, s: 0.55 };
          }
          if (from) {
            const r = c.getBoundingClientRect();
            const dx = from.x - (r.left + r.width / 2), dy = from.y - (r.top + r.height / 2);
            c.animate(
              [{ transform: `translate(${dx}px, ${dy}px) scale(${from.s || 1})` }, { transform: "none" }],
              { duration: dur, easing: "cubic-bezier(.2,.7,.3,1)" });
          }
        }
      }
      c.classList.toggle("winner", !!winner && p.seat === winner);
      c.classList.toggle("loser", !!winner && p.seat !== winner);
    }
    // At a table of 3, 5, 6 or 7 the trick lies in a row in play order, each card
    // numbered and named by its seat; the empty places wait at the end of the row.
    if (this.ring) {
      const at = new Map(trick.map((p, i) => [p.seat, i]));
      for (const slot of this.trickEl.querySelectorAll(".slot")) {
        const i = at.has(slot.dataset.slot) ? at.get(slot.dataset.slot) : 99;
        slot.style.order = String(i);
        slot.classList.toggle("empty", i === 99);
      }
      trick.forEach((p, i) => {
        const c = this.trickEl.querySelector(`.table-card[data-card="${p.card}"]:not(.leaving)`);
        if (c) c.dataset.order = String(i + 1);
      });
    }
  }

  // Where a card flies from or to: the seats placed first if this render has not yet
  // (each placing lays the table out again: once a render unless a card flies).
  seatAnchor(seat) {
    if (!this.placed) this.placeRing();
    const south = seat === this.me;
    const root = $(`.seat[data-seat="${seat}"]`, this.table);
    const el = south ? this.handEl : root && ($(".fan", root) || $(".plate", root));
    if (!el) return null;
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return null;
    return { x: r.left + r.width / 2, y: south ? r.top + 40 : r.top + r.height / 2 };
  }

  // ---- marks: hearts broken, Q♠ fallen -------------------------------------
  renderMarks(snap) {
    const h = snap.hand;
    const broken = !!h.hearts_broken;
    const hb = $("#mark-hearts");
    if (broken && hb.hidden) this.pulse(hb);
    hb.hidden = !broken;
    const qs = $("#mark-queen");
    const qsTrick = (h.tricks || []).find((t) => t.cards.some((p) => p.card === "QS"));
    const qsOnTable = (h.trick || []).some((p) => p.card === "QS");
    const fell = !!qsTrick || qsOnTable;
    if (fell && qs.hidden) this.pulse(qs);
    qs.hidden = !fell;
    const names = snap.names || SEAT_NAME;
    qs.querySelector(".txt").textContent = qsTrick ? T.queenTaken(names[qsTrick.winner]) : T.queenFell;
    // the phone's short form reads as a sentence: "Bạn ăn Q♠", "Q♠ đã ra"
    qs.querySelector(".short").textContent = qsTrick ? T.queenTakenShort(names[qsTrick.winner]) : T.queenFellShort;
  }

  pulse(el) {
    if (reducedMotion() || !this.painted) return;
    el.classList.remove("pulse");
    void el.offsetWidth;
    el.classList.add("pulse");
  }

  renderResult(snap) {
    if (result) result.renderResult(this, snap);
    else if (snap.hand.phase === "done") {
      drawnLater(import("./result.js").then((m) => {
        result = m;
        if (this.snap) { m.renderResult(this, this.snap); this.placeRing(); }
      }));
    }
  }

  // ---- last trick on demand -------------------------------------------------
  renderLastTrick(snap, ui) {
    const h = snap.hand;
    const btn = $("#last-trick");
    const tricks = h.tricks || [];
    const last = tricks.length ? tricks[tricks.length - 1] : null;
    btn.hidden = !last || h.phase === "pass";
    btn.setAttribute("aria-expanded", ui.showLastTrick && last ? "true" : "false");
    const ov = $("#last-trick-view");
    const open = !!(ui.showLastTrick && last);
    ov.hidden = !open;
    if (!open) return;
    const names = snap.names || SEAT_NAME;
    $("#last-trick-title").textContent = T.lastTrickTitle(tricks.length, names[last.winner], signed(last.points));
    // At four the cards lie where the seats sit; otherwise in a row, in play order.
    const grid = $(".lt-grid", ov);
    grid.replaceChildren();
    grid.classList.toggle("row", this.ring);
    const order = this.ring ? last.cards.map((p) => p.seat) : this.seats;
    for (const seat of order) {
      const slot = document.createElement("div");
      slot.className = `lslot lslot-${this.ring ? "row" : seat}`;
      grid.append(slot);
      const p = last.cards.find((x) => x.seat === seat);
      if (!p) continue;
      const c = tableCard(p.card, p.seat);
      c.setAttribute("aria-label", T.played(names[seat] || seat, p.card));
      c.removeAttribute("data-card");
      c.removeAttribute("data-seat");
      c.dataset.lastCard = p.card;
      if (seat === last.winner) c.classList.add("winner");
      slot.append(c);
      if (this.ring) {
        const label = document.createElement("span");
        label.className = "slot-name";
        label.textContent = names[seat] || seat;
        slot.append(label);
      }
    }
  }

  // ---- South's hand -----------------------------------------------------------
  renderHand(snap, ui) {
    const h = snap.hand;
    const cards = h.cards || [];
    const legal = new Set(h.legal || []);
    const received = new Set(h.mark_received && h.received ? h.received : []);
    const selected = ui.selected || new Set();
    const passing = h.phase === "pass" && !h.passed;
    // the cards South passed while the others still choose theirs (a room, or Khó
    // still preparing): in the hand until the exchange, as the server has them, but
    // set aside, as the note on the table says
    const gone = new Set(h.phase === "pass" && h.passed ? h.passed : []);
    const myTurn = h.phase === "play" && h.turn === this.me;
    const keep = new Set(cards);
    const active = document.activeElement;
    let refocus = -1;
    const order = [...this.handEl.querySelectorAll("button.hand-card")];
    for (const [card, b] of this.handButtons) {
      if (!keep.has(card)) {
        if (b === active) refocus = order.indexOf(b);
        b.remove();
        this.handButtons.delete(card);
      }
    }
    cards.forEach((card, i) => {
      let b = this.handButtons.get(card);
      if (!b) {
        b = handCardButton(card);
        this.handButtons.set(card, b);
      }
      if (this.handEl.children[i] !== b) this.handEl.insertBefore(b, this.handEl.children[i] || null);
      let enabled = !ui.busy && legal.has(card);
      // chosen to pass, or in play the card Gợi ý recommends: raised
      const sel = passing ? selected.has(card) : myTurn && legal.has(card) && !!ui.hinted && ui.hinted.has(card);
      const full = selected.size >= h.pass_count;
      if (passing && full && !sel) enabled = false;
      b.setAttribute("aria-disabled", enabled ? "false" : "true");
      if (passing) b.setAttribute("aria-pressed", sel ? "true" : "false");
      else b.removeAttribute("aria-pressed");
      b.classList.toggle("selected", sel);
      b.classList.toggle("illegal", myTurn && !ui.busy && !legal.has(card));
      b.classList.toggle("full", passing && full && !sel);
      b.classList.toggle("received", received.has(card));
      b.classList.toggle("passed", gone.has(card));
      const name = (b.dataset.name ||= b.getAttribute("aria-label"));
      b.setAttribute("aria-label", gone.has(card) ? `${name}, ${T.passedCard}` : name);
      const hinted = !!ui.hinted && ui.hinted.has(card);
      b.classList.toggle("hinted", hinted);
      if (hinted) b.dataset.hinted = "true";
      else delete b.dataset.hinted;
      const reason = h.illegal_reasons && h.illegal_reasons[card];
      b.title = myTurn && reason ? reason : "";
    });
    // roving tabindex: one tab stop for the whole hand, arrows move inside
    const focused = document.activeElement && this.handEl.contains(document.activeElement) ? document.activeElement : null;
    const first = focused || cards.map((c) => this.handButtons.get(c)).find((b) => b.getAttribute("aria-disabled") === "false") || this.handButtons.get(cards[0]);
    for (const b of this.handButtons.values()) b.tabIndex = b === first ? 0 : -1;
    if (refocus >= 0 && cards.length) {
      // the focused card was just played: keep keyboard focus in the hand
      const b = this.handButtons.get(cards[Math.min(refocus, cards.length - 1)]);
      for (const x of this.handButtons.values()) x.tabIndex = x === b ? 0 : -1;
      b.focus({ preventScroll: true });
    }
    this.handEl.classList.toggle("passing", passing);
    this.handEl.classList.toggle("my-turn", myTurn && !ui.busy);
    this.layoutHand();
  }

  layoutHand() {
    const btns = [...this.handEl.querySelectorAll("button.hand-card")];
    const n = btns.length;
    const W = this.handEl.clientWidth;
    const cs = getComputedStyle(this.handEl);
    const cw = parseFloat(cs.getPropertyValue("--cw")) || 80;
    const ch = cw * 1.4;
    const lift = parseFloat(cs.getPropertyValue("--lift")) || 18;
    const minStrip = 46;
    let rows = 1;
    const stepFor = (k) => (k <= 1 ? cw : (W - cw) / (k - 1));
    while (rows < 3 && stepFor(Math.ceil(n / rows)) < minStrip) rows++;
    // a raised card (chosen, and focused too: lift + 4 px) of a lower row still leaves
    // 44 px, and the middle, of the card above it to tap
    const rowOffset = Math.ceil(Math.max(ch * 0.56, 44 + lift + 6, ch / 2 + lift + 6));
    const perRow = Math.ceil(n / Math.max(rows, 1)) || 1;
    // balanced rows: the first rows get the extra card
    let idx = 0;
    for (let r = 0; r < rows; r++) {
      const k = Math.min(perRow, n - idx);
      if (k <= 0) break;
      const step = Math.min(cw + 8, stepFor(k));
      const rowW = cw + step * (k - 1);
      const x0 = Math.max(0, (W - rowW) / 2);
      for (let j = 0; j < k; j++, idx++) {
        const b = btns[idx];
        b.style.left = `${Math.round(x0 + j * step)}px`;
        b.style.top = `${lift + r * rowOffset}px`;
        b.style.zIndex = String(10 + idx);
        // where the yellow "received" bar goes: under the visible part
        const visibleH = r < rows - 1 ? rowOffset : ch;
        b.style.setProperty("--bar-top", r < rows - 1 ? `${visibleH - 9}px` : `${ch + 4}px`);
        b.style.setProperty("--strip", j < k - 1 ? `${Math.round(step)}px` : `${cw}px`);
      }
    }
    const height = n ? lift + (rows - 1) * rowOffset + ch + 12 : 0;
    this.handEl.style.height = `${Math.max(height, 0)}px`;
    this.handEl.dataset.rows = String(rows);
  }
}

export { cardShort };
