// The hand's controller, kept by the table's page (tablepage.js) of every mode: it
// keeps what the player is doing with their hand (the cards chosen to pass, "Vòng
// trước" open), turns taps and keys into the page's actions, and paints the parts of
// the page that belong to the hand: the table (TableView), the note on it, the pass
// and take-back buttons. It decides nothing: legal cards and reasons are the
// server's, and the table's transport says how an action goes to its server.
import { TableView, cardText } from "./table.js";
import { SEAT_NAME, T, cardShort, rulesLine, signed, isDefaultRules } from "./i18n.js";
import { $, el, markBusy } from "./dom.js";

// Side panels: "Các vòng trong ván" (tricks of this hand) and the score table, and
// their place on a small screen (below: one file, not two, before the first card:
// bench/page_results.md).
export function renderTricks(snap) {
  const h = snap.hand;
  const names = snap.names || SEAT_NAME;
  const list = document.getElementById("tricks-list");
  const empty = document.getElementById("tricks-empty");
  const tricks = h.tricks || [];
  const key = JSON.stringify([snap.match.hand_number, tricks.length]);
  empty.hidden = tricks.length > 0;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren();
  tricks.forEach((t, i) => {
    const li = el("li", "trick-row");
    if (t.points) li.classList.add("has-points");
    const head = el("div", "trick-head");
    head.append(el("span", "tn", T.trickN(i + 1)), el("span", "tl", T.leads(names[t.leader])));
    const cards = el("div", "trick-cards");
    cards.style.gridTemplateColumns = `repeat(${t.cards.length}, minmax(0, 1fr))`;
    for (const p of t.cards) {
      const c = el("span", "tc" + (p.seat === t.winner ? " won" : ""));
      c.append(el("span", "ts", names[p.seat]), cardText(p.card));
      cards.append(c);
    }
    const foot = el("div", "trick-foot");
    const jack = t.cards.some((p) => p.card === "JD") && snap.rules && snap.rules.jd_bonus;
    foot.append(
      el("span", "tw", T.takes(names[t.winner])),
      el("span", "tp" + (t.points > 0 ? " pts" : t.points < 0 ? " bonus" : ""), T.points(signed(t.points)) + (jack ? " (J♦\uFE0E −10)" : "")),
    );
    li.append(head, cards, foot);
    list.append(li);
  });
  const panel = document.getElementById("tricks-scroll");
  const toEnd = () => { panel.scrollTop = panel.scrollHeight; };
  toEnd();
  requestAnimationFrame(() => requestAnimationFrame(toEnd));
}

export function renderScores(snap) {
  const m = snap.match;
  const names = snap.names || SEAT_NAME;
  const seats = snap.seats;
  const table = document.getElementById("score-table");
  const head = table.tHead.rows[0];
  const foot = table.tFoot.rows[0];
  // One column per seat, in play order (3 to 7 of them).
  const seatKey = seats.join(",");
  if (table.dataset.seats !== seatKey) {
    table.dataset.seats = seatKey;
    table.dataset.key = "";
    while (head.cells.length > 1) head.deleteCell(-1);
    while (foot.cells.length > 1) foot.deleteCell(-1);
    for (const s of seats) {
      const th = el("th", "", names[s]);
      th.scope = "col";
      head.append(th);
      foot.append(el("td", "", "0"));
    }
    table.classList.toggle("wide", seats.length > 5);
  }
  seats.forEach((s, i) => { head.cells[i + 1].textContent = names[s]; });
  // the match's own lines before the rows' early return: a new match at other rules
  // has the same empty rows as the last new match
  document.getElementById("score-target").textContent = T.targetLine(m.target);
  const line = document.getElementById("score-rules");
  line.hidden = !snap.rules || isDefaultRules(snap.rules);
  line.textContent = line.hidden ? "" : T.rulesOfMatch(rulesLine(snap.rules));
  const body = table.tBodies[0];
  const key = JSON.stringify([m.hands, m.totals, m.over]);
  if (table.dataset.key === key) return;
  table.dataset.key = key;
  body.replaceChildren();
  (m.hands || []).forEach((hd, i) => {
    const tr = el("tr");
    tr.append(el("th", "hn", String(i + 1)));
    tr.firstChild.scope = "row";
    for (const s of seats) {
      const td = el("td", "", signed(hd.points[s]));
      if (hd.moon === s) {
        // a crescent before the points, the words for screen readers and a pointer's
        // title: the word under the points widened its column and lifted the points
        // off their row's line (a phone's narrow panel)
        const words = hd.moon_scoring === "subtract_from_self" ? T.moonTagMinus : T.moonTag;
        td.classList.add("moon");
        td.title = words;
        const sign = el("span", "moon-tag");
        sign.setAttribute("aria-hidden", "true");
        td.prepend(sign);
        td.append(el("span", "sr-only", ` ${words}`));
      }
      if (hd.points[s] >= 13) td.classList.add("heavy");
      tr.append(td);
    }
    body.append(tr);
  });
  const low = Math.min(...seats.map((s) => m.totals[s]));
  seats.forEach((s, i) => {
    const c = foot.cells[i + 1];
    c.textContent = signed(m.totals[s]);
    c.classList.toggle("leader", (m.hands || []).length > 0 && m.totals[s] === low);
  });
  document.getElementById("score-empty").hidden = (m.hands || []).length > 0;
}

export function renderStats(stats) {
  const box = document.getElementById("stats");
  const tables = document.getElementById("stats-tables");
  tables.hidden = true;
  if (!stats) { box.hidden = true; return; }
  // Matches by the rules they were played with, when any was not the default table.
  const other = (stats.tables || []).filter((t) => !isDefaultRules(t.rules));
  if (other.length) {
    tables.hidden = false;
    tables.replaceChildren(el("div", "st-title", T.byRules));
    for (const t of stats.tables || []) {
      const best = t.best === null || t.best === undefined ? "–" : signed(t.best);
      const row = el("div", "st-row", T.rulesRow(isDefaultRules(t.rules) ? T.defaultRules : rulesLine(t.rules), t.played, t.won, best));
      row.dataset.rules = JSON.stringify(t.rules);
      tables.append(row);
    }
  }
  box.hidden = false;
  const best = stats.best === null || stats.best === undefined ? "–" : String(stats.best);
  document.getElementById("stats-text").textContent =
    T.statsText(stats.played, stats.won, stats.hands, stats.moons) +
    (stats.take_back_matches ? T.takeBackMatches(stats.take_back_matches) : "") +
    (stats.checker_plays ? T.checkerStats(stats.checker_asked, stats.checker_plays) : "");
  document.getElementById("stats-best").textContent = T.bestTotal(best);
}

// The side panels on a small screen ("Các vòng", "Bảng điểm", "Thành tích"): a tab
// each, one tap opens that panel over the table, a tap on the same tab, "Về bàn" or
// Escape closes it. On a wide screen the panels stand beside the table and the tabs
// are hidden (layout.css). The page's layout is CSS, but for the two moves below.
// While a panel lies over the table, the table and the hand under it are out of reach
// (no Tab stop, no screen reader visit); on a wide screen the panels stand beside it.
function coverTable() {
  const side = $(".side");
  const covered = !!document.body.dataset.panel && getComputedStyle(side).position === "absolute";
  $(".game").inert = covered;
}

// A landscape phone: the top bar is one line, with no room for the settings and the
// match's buttons both. "Trận mới", "Chơi với bạn bè" and "Chơi với mọi người" stay
// on the table screen, one tap away (issue 39, item 5); the settings (level, quick
// play, sound) go behind the top bar's "Cài đặt", one tap away too (issue 56, item 11:
// under "Các bảng" nobody looked for them), and back on a wider screen.
const LANDSCAPE_PHONE = "(orientation: landscape) and (max-height: 599px)";
function placeSettings(landscape) {
  const settings = $(".settings"), pop = $("#settings-pop");
  if (landscape) pop.append(settings);
  else {
    // (a browser without pop-ups has no hidePopover, nor knows ":popover-open")
    if (pop.hidePopover && pop.matches(":popover-open")) pop.hidePopover();
    $("#new-match-open").before(settings);
  }
}

// A hand's result and the moon's choice on a small screen, or beside a tablet's side
// panels, take the hand's place below the table (the hand is empty then), off the
// seats' plates and the table's notes (issue 39, item 3: over the table's middle they
// hid West's and East's); the end of a match still fills the table, and on a wide
// screen both lie over its middle (layout.css has the same query).
const SMALL = window.matchMedia("(max-width: 1199px), (max-height: 599px)");
function placeBoxes() {
  for (const box of [$("#result"), $("#moon-choice")]) {
    const below = SMALL.matches && !box.classList.contains("over");
    if (below && box.parentElement !== $(".game")) $("#hand").after(box);
    else if (!below && box.parentElement !== $("#table")) $("#table").append(box);
  }
}

export function wirePanels() {
  window.addEventListener("resize", coverTable);
  placeBoxes();
  SMALL.addEventListener("change", placeBoxes);
  new MutationObserver(placeBoxes).observe($("#result"), { attributes: true, attributeFilter: ["class"] });
  const landscape = window.matchMedia(LANDSCAPE_PHONE);
  placeSettings(landscape.matches);
  landscape.addEventListener("change", (e) => placeSettings(e.matches));
  const tabs = [...document.querySelectorAll("#panel-tabs button[data-panel]")];
  const show = (name) => {
    if (name) document.body.dataset.panel = name;
    else delete document.body.dataset.panel;
    for (const t of tabs) t.setAttribute("aria-expanded", String(t.dataset.panel === name));
    coverTable();
    if (name === "tricks") {
      const list = $("#tricks-scroll");
      list.scrollTop = list.scrollHeight;
    }
  };
  for (const t of tabs) {
    t.addEventListener("click", () => show(document.body.dataset.panel === t.dataset.panel ? null : t.dataset.panel));
  }
  $("#panel-close").addEventListener("click", () => {
    const open = tabs.find((t) => t.dataset.panel === document.body.dataset.panel);
    show(null);
    if (open) open.focus();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && document.body.dataset.panel && !document.querySelector("dialog[open]")) show(null);
  });
}

// One line per event in the polite live region (the last few kept: a screen reader
// reads each new line; replacing one text could drop plays that come quickly).
export function announce(text) {
  const box = $("#announce");
  box.append(el("div", "", text));
  while (box.childElementCount > 8) box.firstElementChild.remove();
}

// The cards chosen to pass outlive a reload (issue 56): kept in this tab's
// sessionStorage with the hand they were chosen from (its number and cards), and
// chosen again only in that hand's pass, each still held and still open to choose.
const CHOSEN_KEY = "hearts-pass-chosen";
const handKey = (s) => [s.match.hand_number, ...[...s.hand.cards].sort()].join(" ");
function keepChosen(s, cards) {
  try {
    if (s) sessionStorage.setItem(CHOSEN_KEY, JSON.stringify({ hand: handKey(s), cards }));
    else sessionStorage.removeItem(CHOSEN_KEY);
  } catch { /* storage off: this page only */ }
}
function keptChosen(s) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(CHOSEN_KEY) || "null");
    return kept && kept.hand === handKey(s) && Array.isArray(kept.cards) ? kept.cards : [];
  } catch { return []; }
}

export class HandController {
  // current(): the State the server sent last (null: no table); busy(): an action
  // or cards landing; say(text, kind): a word on the message line, hush() takes it
  // back; repaint(): the page painted again; play(card), pass(cards), takeBack():
  // the actions (takeBack may be missing); waitText: what a tap while busy says.
  constructor(hooks) {
    this.hooks = hooks;
    this.selected = new Set();
    this.showLastTrick = false;
    this.view = new TableView();
    const hand = $("#hand");
    hand.addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-card]");
      if (b) this.tap(b.dataset.card);
    });
    hand.addEventListener("keydown", (ev) => this.onHandKey(ev));
    this.wire();
  }

  wire() {
    $("#pass-button").addEventListener("click", () => this.sendPass());
    if (this.hooks.takeBack) $("#take-back-button").addEventListener("click", () => this.hooks.takeBack());
    $("#last-trick").addEventListener("click", () => { this.showLastTrick = !this.showLastTrick; this.hooks.repaint(); });
    $("#last-trick-view").addEventListener("click", () => this.closeLastTrick());
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.showLastTrick) this.closeLastTrick();
    });
  }

  closeLastTrick() {
    this.showLastTrick = false;
    this.hooks.repaint();
  }

  // A new hand or match, or a card taken back: nothing chosen, "Vòng trước" shut.
  reset() {
    this.selected = new Set();
    this.showLastTrick = false;
    keepChosen(null);
  }

  // The pass was made: its cards are no longer chosen.
  passed() { this.selected = new Set(); keepChosen(null); }

  // After a reload in the pass: the cards chosen before it, those still valid.
  restoreChosen(s) {
    const h = s.hand;
    if (h.phase !== "pass" || h.passed || this.selected.size || this.restoredFor === handKey(s)) return;
    this.restoredFor = handKey(s);
    const open = h.legal || h.cards;
    const cards = keptChosen(s).filter((c) => h.cards.includes(c) && open.includes(c));
    this.selected = new Set(cards.slice(0, h.pass_count));
  }

  // Gợi ý applied in one tap: in the pass its cards become the ones chosen (the
  // player still confirms with "Chuyền"); in play its card is raised by the view
  // (`hinted`) and gets the focus, and a tap on it plays it like any card.
  applyHint(s, cards) {
    const h = s.hand;
    if (h.phase === "pass" && !h.passed) {
      this.selected = new Set(cards.filter((c) => (h.legal || h.cards).includes(c)));
      keepChosen(s, [...this.selected]);
    }
  }

  // ---- input -----------------------------------------------------------------
  tap(card) {
    const s = this.hooks.current();
    if (!s) return;
    const h = s.hand;
    if (this.hooks.busy()) { this.hooks.say(this.hooks.waitText, "info"); return; }
    if (h.phase === "pass" && !h.passed) { this.choose(card, h); return; }
    if (h.phase === "play" && h.turn === s.seats[0]) {
      if ((h.legal || []).includes(card)) this.hooks.play(card);
      else this.hooks.say((h.illegal_reasons || {})[card] || T.cantPlay);
      return;
    }
    this.hooks.say(s.match.over ? T.matchDone : h.phase === "done" ? T.handDone : T.notYourTurn, "info");
  }

  // A card chosen for the pass, or no longer chosen.
  choose(card, h) {
    const n = h.pass_count;
    if (this.selected.has(card)) this.selected.delete(card);
    else if (this.selected.size >= n) { this.hooks.say(T.passFull(n), "info"); return; }
    else if ((h.legal || h.cards).includes(card)) this.selected.add(card);
    else { this.hooks.say((h.illegal_reasons || {})[card] || T.cantPick); return; }
    keepChosen(this.hooks.current(), [...this.selected]);
    this.hooks.hush();
    this.hooks.repaint();
  }

  sendPass() {
    const s = this.hooks.current();
    if (!s || this.hooks.busy() || this.selected.size !== s.hand.pass_count) return;
    this.hooks.pass([...this.selected]);
  }

  // Roving focus in the hand: one tab stop, the arrows (and Home, End) move inside.
  onHandKey(ev) {
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
    if (!keys.includes(ev.key)) return;
    const btns = [...$("#hand").querySelectorAll("button.hand-card")];
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

  // Focus on the card Gợi ý raised, else the hand's first card that may be played (or
  // chosen to pass), unless a card of the hand has the focus already.
  focusFirstLegal() {
    const hand = $("#hand");
    if (hand.contains(document.activeElement)) return;
    const btns = [...hand.querySelectorAll("button.hand-card")];
    const open = (x) => x.getAttribute("aria-disabled") === "false";
    const b = btns.find((x) => open(x) && x.dataset.hinted === "true") || btns.find(open);
    if (!b) return;
    for (const x of btns) x.tabIndex = x === b ? 0 : -1;
    b.focus({ preventScroll: true });
  }

  // Where the next action is, when focus was lost (the button pressed is gone, or the
  // card played): "Chuyền" once the pass is chosen, the first card that may be played
  // or chosen (the one Gợi ý raised first), or the button that deals the next hand or
  // starts a new match. Focus elsewhere is left alone.
  placeFocus(s) {
    const a = document.activeElement;
    const lost = !a || a === document.body || a.hidden || a.closest("[hidden]") || a.disabled ||
      a.matches("#hand button.hand-card");
    if (!lost || document.querySelector("dialog[open]")) return;
    const h = s.hand;
    const pass = $("#pass-button");
    if (h.phase === "pass" && !h.passed && !pass.hidden && !pass.disabled) {
      pass.focus({ preventScroll: true });  // the pass is chosen (a hint chose it): send it
      return;
    }
    if ((h.phase === "play" && h.turn === s.seats[0]) || (h.phase === "pass" && !h.passed)) {
      this.focusFirstLegal();
      return;
    }
    const target = h.phase !== "done" ? null : s.match.over ? $("#new-match") : $("#next-hand");
    if (target && !target.hidden) target.focus({ preventScroll: true });
  }

  // ---- painting --------------------------------------------------------------
  // The table, the side panels and the hand's buttons for the snapshot `s`; `hinted`:
  // the cards Gợi ý marks.
  paint(s, { busy, hinted = null }) {
    this.restoreChosen(s);
    this.view.render(s, { selected: this.selected, busy, showLastTrick: this.showLastTrick, hinted });
    renderTricks(s);
    renderScores(s);
    this.paintNote(s);
    this.paintButtons(s, busy);
    const b = document.body.dataset, h = s.hand;
    b.phase = h.phase;
    b.turn = h.turn || "";
    markBusy(busy);
    b.matchOver = s.match.over ? "true" : "false";
    b.hand = String(s.match.hand_number);
  }

  // The note on the table: what was received, no pass this hand, what was passed.
  paintNote(s) {
    const h = s.hand, names = s.names || SEAT_NAME;
    let text = "";
    if (h.phase === "play" && h.mark_received && h.received && h.received.length) {
      text = T.receivedFrom(names[h.pass_from]) + h.received.map(cardShort).join("  ");
    } else if (h.phase === "play" && h.pass_direction === "none" && !(h.tricks || []).length) {
      text = T.noPass;
    } else if (h.phase === "pass" && h.passed && h.passed.length) {
      text = T.passedTo(names[h.pass_to]) + h.passed.map(cardShort).join("  ");
    }
    const note = $("#table-note");
    note.textContent = text;
    note.hidden = !text;
  }

  paintButtons(s, busy) {
    const h = s.hand;
    const passing = h.phase === "pass" && !h.passed;
    const pass = $("#pass-button");
    pass.hidden = !passing;
    if (passing) pass.textContent = T.passButton(h.pass_direction);
    pass.disabled = !(passing && this.selected.size === h.pass_count && !busy);
    // Đi lại: the server says when South's last card may be taken back.
    const back = $("#take-back-button");
    back.hidden = !(h.can_take_back && !s.match.over && (s.settings || {}).take_back !== false);
    back.disabled = busy;
  }
}
