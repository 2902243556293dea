// The table: fed a display snapshot (same shape as the server State, see
// docs/api.md), it draws seats, fans of backs, the trick, marks and the hand,
// and animates what changed since the previous snapshot (like chessground).
import { handCardButton, tableCard, cardBack, cardText } from "./cards.js";
import { SEAT_NAME, T, cardShort } from "./i18n.js";

const SEATS = ["S", "W", "N", "E"];
const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function $(sel, root = document) { return root.querySelector(sel); }

export class TableView {
  constructor({ onCardTap }) {
    this.table = $("#table");
    this.handEl = $("#hand");
    this.trickEl = $("#trick");
    this.onCardTap = onCardTap;
    this.handButtons = new Map(); // card -> button (kept across renders: focus survives)
    this.prevTrickKey = "";
    this.prevCounts = {};
    this.snap = null;
    this.ui = {};
    this.handEl.addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-card]");
      if (b) this.onCardTap(b.dataset.card, b);
    });
    this.handEl.addEventListener("keydown", (ev) => this.onHandKey(ev));
    window.addEventListener("resize", () => this.layoutHand());
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
    // South just played flies from its place in the hand.
    const handRects = new Map();
    for (const [card, b] of this.handButtons) handRects.set(card, b.getBoundingClientRect());

    this.renderSeats(snap);
    this.renderTrick(snap, handRects);
    this.renderMarks(snap);
    this.renderResult(snap);
    this.renderHand(snap, ui);
    this.renderLastTrick(snap, ui);
    this.painted = true;
  }

  // ---- seats --------------------------------------------------------------
  renderSeats(snap) {
    const h = snap.hand;
    const names = snap.names || SEAT_NAME;
    for (const seat of SEATS) {
      const root = $(`.seat[data-seat="${seat}"]`, this.table);
      if (!root) continue;
      $(".name", root).textContent = names[seat] || SEAT_NAME[seat];
      $(".total", root).textContent = snap.match.totals[seat];
      const done = h.phase === "done" && h.points;
      const taken = done ? h.points[seat] : h.taken ? h.taken[seat] : 0;
      const tk = $(".taken", root);
      tk.textContent = taken > 0 ? `+${taken}` : `${taken}`;
      tk.hidden = !taken;
      tk.title = done ? `Điểm ván này: ${taken}` : taken ? `Ván này đã ăn ${taken} điểm` : "";
      const isTurn = h.phase === "play" && h.turn === seat;
      root.classList.toggle("turn", isTurn);
      const passTarget = h.phase === "pass" && !h.passed && h.pass_to === seat;
      root.classList.toggle("pass-target", passTarget);
      const hint = $(".seat-hint", root);
      if (hint) {
        hint.textContent = passTarget ? "nhận 3 lá của bạn" : isTurn && seat !== "S" ? "đang đánh…" : "";
        hint.hidden = !hint.textContent;
      }
      const fan = $(".fan", root);
      if (fan) this.renderFan(fan, h.counts ? h.counts[seat] : 0);
      const cnt = $(".count", root);
      if (cnt) cnt.textContent = h.counts ? `${h.counts[seat]} lá` : "";
    }
  }

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
        const slot = $(`.slot-${p.seat}`, this.trickEl);
        slot.append(c);
        if (motion) {
          let from = null;
          if (p.seat === "S" && handRects.has(p.card)) {
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
  }

  seatAnchor(seat) {
    const el = seat === "S" ? this.handEl : $(`.seat[data-seat="${seat}"] .fan`, this.table);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return null;
    return { x: r.left + r.width / 2, y: seat === "S" ? r.top + 40 : r.top + r.height / 2 };
  }

  // ---- marks: hearts broken, Q♠ fallen -------------------------------------
  renderMarks(snap) {
    const h = snap.hand;
    const played = [...(h.tricks || []).flatMap((t) => t.cards), ...(h.trick || [])];
    const broken = !!h.hearts_broken || played.some((p) => p.card[1] === "H");
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
    qs.querySelector(".short").textContent = qsTrick ? `: ${names[qsTrick.winner]} ăn` : " đã ra";
  }

  pulse(el) {
    if (reducedMotion() || !this.painted) return;
    el.classList.remove("pulse");
    void el.offsetWidth;
    el.classList.add("pulse");
  }

  // ---- end-of-hand result on the table ----------------------------------
  renderResult(snap) {
    const h = snap.hand;
    const box = $("#result");
    const show = h.phase === "done" && h.points;
    box.hidden = !show;
    if (!show) return;
    const names = snap.names || SEAT_NAME;
    $("#result-title").textContent = T.handPoints(snap.match.hand_number);
    const list = $("#result-points");
    list.replaceChildren();
    for (const seat of SEATS) {
      const li = document.createElement("li");
      li.dataset.seat = seat;
      const n = document.createElement("span");
      n.className = "rn";
      n.textContent = names[seat];
      const p = document.createElement("span");
      p.className = "rp";
      p.textContent = h.points[seat] > 0 ? `+${h.points[seat]}` : `${h.points[seat]}`;
      const t = document.createElement("span");
      t.className = "rt";
      t.textContent = `= ${snap.match.totals[seat]}`;
      li.append(n, p, t);
      if (h.moon === seat) li.classList.add("moon");
      list.append(li);
    }
    const moon = $("#result-moon");
    moon.hidden = !h.moon;
    moon.replaceChildren();
    if (h.moon) {
      const big = document.createElement("div");
      big.textContent = T.moon(names[h.moon]);
      const small = document.createElement("div");
      small.className = "moon-sub";
      small.textContent = `${names[h.moon]} 0 điểm, ba nhà kia mỗi nhà +26`;
      moon.append(big, small);
    }
    const auto = $("#result-auto");
    auto.hidden = !h.auto_finished;
    auto.textContent = T.autoFinished;
    const win = $("#result-winner");
    const m = snap.match;
    win.hidden = !m.over;
    if (m.over && m.winner) win.textContent = T.winner(names[m.winner], m.totals[m.winner]);
    box.classList.toggle("over", !!m.over);
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
    $("#last-trick-title").textContent = `Vòng ${tricks.length}: ${names[last.winner]} ăn` + (last.points ? `, ${last.points} điểm` : ", 0 điểm");
    for (const seat of SEATS) {
      const slot = $(`.lslot-${seat}`, ov);
      slot.replaceChildren();
      const p = last.cards.find((x) => x.seat === seat);
      if (!p) continue;
      const c = tableCard(p.card, p.seat);
      c.removeAttribute("data-card");
      c.removeAttribute("data-seat");
      c.dataset.lastCard = p.card;
      if (seat === last.winner) c.classList.add("winner");
      slot.append(c);
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
    const myTurn = h.phase === "play" && h.turn === "S";
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
      const sel = passing && selected.has(card);
      let enabled = !ui.busy && legal.has(card);
      if (passing && selected.size >= 3 && !sel) enabled = false;
      b.setAttribute("aria-disabled", enabled ? "false" : "true");
      if (passing) b.setAttribute("aria-pressed", sel ? "true" : "false");
      else b.removeAttribute("aria-pressed");
      b.classList.toggle("selected", sel);
      b.classList.toggle("illegal", myTurn && !ui.busy && !legal.has(card));
      b.classList.toggle("full", passing && selected.size >= 3 && !sel);
      b.classList.toggle("received", received.has(card));
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
    const rowOffset = Math.round(ch * 0.56);
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

  onHandKey(ev) {
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
    if (!keys.includes(ev.key)) return;
    const btns = [...this.handEl.querySelectorAll("button.hand-card")];
    if (!btns.length) return;
    let i = btns.indexOf(document.activeElement);
    if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") i = i <= 0 ? btns.length - 1 : i - 1;
    else if (ev.key === "ArrowRight" || ev.key === "ArrowDown") i = i < 0 || i >= btns.length - 1 ? 0 : i + 1;
    else if (ev.key === "Home") i = 0;
    else i = btns.length - 1;
    ev.preventDefault();
    for (const b of btns) b.tabIndex = -1;
    btns[i].tabIndex = 0;
    btns[i].focus();
  }
}

export { cardShort, cardText };
