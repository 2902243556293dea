// Máy đã biết gì (what the computer knew), in the review: for the step on screen
// (the pass, or trick k), each computer decision with what its seat could see then
// and, at Khó, its belief about the cards it could not see (the share of the deals
// it imagined that put each card in each other hand), beside where they really
// were. The server works it out after the hand (GET /api/knew/{n}); the page shows it.
import { api } from "./api.js";
import { SEAT_NAME, R, cardShort, cardSpoken, isRed } from "./i18n.js";
import { el } from "./dom.js";

function cards(list) {
  const span = el("span", "kn-cards");
  for (const c of list) {
    const card = el("span", "rv-card" + (isRed(c) ? " red" : ""), cardShort(c));
    card.setAttribute("aria-label", cardSpoken(c));
    span.append(card);
  }
  return span;
}

export class KnewPanel {
  // box: the review's section; showError(text): the review's error line.
  constructor(box, showError) {
    this.box = box;
    this.showError = showError;
    this.hand = null;    // the hand of the match on the table (null: a file: nothing to ask)
    this.names = SEAT_NAME;
    this.report = null;
    this.step = 0;
  }

  reset(hand, names) {
    this.hand = hand;
    this.names = names || SEAT_NAME;
    this.report = null;
    this.render();
  }

  go(step) {
    this.step = step;
    this.render();
  }

  async load() {
    const hand = this.hand;
    const button = this.box.querySelector("#rv-knew-open");
    if (button) { button.disabled = true; button.textContent = R.knewLoading; }
    try {
      const report = await api.knew(hand);
      if (this.hand !== hand) return;
      this.report = report;
    } catch (e) {
      this.showError(e.message || R.knewError);
      if (button) { button.disabled = false; button.textContent = R.knewOpen; }
      return;
    }
    this.render();
  }

  render() {
    const box = this.box;
    box.replaceChildren();
    if (this.hand === null) return;
    box.append(el("h3", "kn-title", R.knewTitle));
    const r = this.report;
    if (!r) {
      const b = el("button", "ghost", R.knewOpen);
      b.type = "button";
      b.id = "rv-knew-open";
      b.addEventListener("click", () => this.load());
      box.append(b, el("span", "muted small", R.knewAbout));
      return;
    }
    if (r.level !== "hard") box.append(el("p", "muted small", R.knewNotHard));
    const here = r.decisions.filter((d) => d.trick === this.step);
    if (!here.length) box.append(el("p", "muted", this.step ? R.knewNoneTrick : R.knewNonePass));
    for (const d of here) box.append(this.decision(d, r));
  }

  decision(d, r) {
    const names = this.names;
    const item = el("article", "kn-decision");
    item.dataset.seat = d.seat;
    item.dataset.kind = d.kind;
    const head = el("p", "kn-head");
    head.append(el("b", "", names[d.seat] + " "), d.kind === "pass" ? R.knewPassed : R.knewPlayed, " ", cards(d.kind === "pass" ? d.chose : [d.chose]));
    item.append(head);
    const saw = el("ul", "kn-saw");
    const line = (label, list) => {
      const li = el("li", "", label + " ");
      li.append(list.length ? cards(list) : R.knewNothing);
      saw.append(li);
    };
    line(R.knewHand, d.hand);
    if (d.passed.length) line(R.knewGave, d.passed);
    if (d.received.length) line(R.knewGot(names[d.from]), d.received);
    if (d.kind === "play") {
      const li = el("li", "", R.knewTable + " ");
      if (d.table.length) for (const p of d.table) li.append(names[p.seat] + " ", cards([p.card]), " ");
      else li.append(R.knewLeads);
      saw.append(li);
      saw.append(el("li", "", R.knewPlayedSoFar(d.played)));
    }
    item.append(saw);
    const hidden = r.watched.filter((c) => c in d.where);
    if (d.belief) item.append(this.beliefTable(d, hidden));
    else if (r.level === "hard") item.append(el("p", "muted small", R.knewNoChoice));
    if (!d.belief && hidden.length) {
      const where = el("p", "kn-where", R.knewReally + " ");
      for (const c of hidden) where.append(cards([c]), ` ${names[d.where[c]]}; `);
      item.append(where);
    }
    return item;
  }

  // One row per watched card the seat could not see, one column per other seat: the
  // share of the imagined deals that put it there; the real holder's cell marked.
  beliefTable(d, hidden) {
    const names = this.names;
    const wrap = el("div", "kn-belief");
    wrap.append(el("p", "small", R.knewImagined(d.belief.worlds)));
    if (!hidden.length) { wrap.append(el("p", "muted small", R.knewAllSeen)); return wrap; }
    const seats = Object.keys(d.belief.seats);
    const table = el("table", "kn-table");
    const head = el("tr");
    head.append(el("th", "", R.knewCard));
    for (const s of seats) { const th = el("th", "", names[s]); th.scope = "col"; head.append(th); }
    table.append(head);
    for (const c of hidden) {
      const row = el("tr");
      const th = el("th");
      th.scope = "row";
      th.append(cards([c]));
      row.append(th);
      for (const s of seats) {
        const real = d.where[c] === s;
        const td = el("td", real ? "real" : "", `${d.belief.seats[s][c]}%`);
        td.dataset.card = c;
        td.dataset.seat = s;
        td.dataset.real = real ? "true" : "false";
        if (real) { td.append(el("span", "kn-mark", " ✓")); td.title = R.knewRealHere; }
        row.append(td);
      }
      table.append(row);
    }
    wrap.append(table, el("p", "muted small", R.knewLegend));
    return wrap;
  }
}
