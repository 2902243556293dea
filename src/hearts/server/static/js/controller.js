// The hand's controller, kept by the table's page (tablepage.js) of every mode: it
// keeps what the player is doing with their hand (the cards chosen to pass, "Vòng
// trước" open), turns taps and keys into the page's actions, and paints the parts of
// the page that belong to the hand: the table (TableView), the note on it, the pass
// and take-back buttons. It decides nothing: legal cards and reasons are the
// server's, and the table's transport says how an action goes to its server.
import { TableView } from "./table.js";
import { renderTricks, renderScores } from "./panels.js";
import { SEAT_NAME, T, cardShort } from "./i18n.js";
import { $, el, markBusy } from "./dom.js";

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
