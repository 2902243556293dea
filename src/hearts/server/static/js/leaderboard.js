// The leaderboard (docs/api.md, GET /api/leaderboard): this week's and all-time top
// 50 by the conservative rating, the player's own place, and the switch that keeps
// the player off the boards (PUT /api/leaderboard/me). Loaded when opened.
import { publicApi } from "./api.js";
import { T } from "./i18n.js";
import { P, rating, ratingChange } from "./i18n-public.js";
import { $, el } from "./dom.js";


export class Leaderboard {
  constructor() {
    let dialog = $("#leaderboard");
    if (!dialog) {
      dialog = el("dialog", "leaderboard");
      dialog.id = "leaderboard";
      dialog.setAttribute("aria-labelledby", "lb-h");
      dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
      document.body.append(dialog);
    }
    this.dialog = dialog;
    this.which = "week";
    this.board = null;
  }

  async open() {
    const d = this.dialog;
    const top = el("div", "lb-top");
    const h = el("h2", "", P.board);
    h.id = "lb-h";
    const close = el("button", "ghost", P.close);
    close.type = "button";
    close.addEventListener("click", () => d.close());
    top.append(h, close);
    const tabs = el("div", "lb-tabs");
    tabs.setAttribute("role", "group");
    for (const which of ["week", "all"]) {
      const b = el("button", "ghost lb-tab", P[which]);
      b.type = "button";
      b.dataset.board = which;
      b.addEventListener("click", () => { this.which = which; this.render(); });
      tabs.append(b);
    }
    const me = el("p", "lb-me");
    me.id = "lb-me";
    const list = el("ol", "lb-list");
    list.id = "lb-list";
    const off = el("label", "lb-off");
    const box = el("input");
    box.type = "checkbox";
    box.id = "lb-keep-off";
    box.setAttribute("role", "switch");
    box.addEventListener("change", () => this.keepOff(box.checked));
    off.append(box, " ", el("span", "", P.keepOff));
    const err = el("p", "nm-error");
    err.id = "lb-error";
    err.setAttribute("role", "alert");
    err.hidden = true;
    d.replaceChildren(top, tabs, me, list, off, el("p", "muted lb-about", P.boardAbout), err);
    if (d.showModal) d.showModal(); else d.setAttribute("open", "");
    close.focus();
    try {
      this.board = await publicApi.board();
    } catch (e) {
      this.fail(e);
    }
    this.render();
  }

  fail(e) {
    const err = $("#lb-error", this.dialog);
    err.textContent = e.code === "network" ? T.netError : e.message || P.boardFailed;
    err.hidden = false;
  }

  async keepOff(hidden) {
    try {
      this.board = await publicApi.keepOff(hidden);
    } catch (e) {
      this.fail(e);
    }
    this.render();
  }

  render() {
    const d = this.dialog, b = this.board;
    d.dataset.board = this.which;
    for (const t of d.querySelectorAll(".lb-tab")) t.setAttribute("aria-pressed", String(t.dataset.board === this.which));
    const list = $("#lb-list", d);
    list.replaceChildren();
    if (!b) return;
    const rows = b[this.which] || [];
    for (const row of rows) {
      const li = el("li", "lb-row");
      li.dataset.rank = String(row.rank);
      li.append(el("span", "lb-rank", String(row.rank)), el("span", "lb-name", row.name), el("span", "lb-rating", rating(row.rating)));
      list.append(li);
    }
    if (!rows.length) list.append(el("li", "muted lb-empty", P.emptyBoard));
    const me = b.me;
    const line = $("#lb-me", d);
    if (me) {
      let text = P.me(me.rank, rating(me.rating), me.matches);
      if (me.last) text += P.meLast(me.last.place, ratingChange(me.last.change));
      line.textContent = text;
      line.dataset.rank = me.rank === null ? "" : String(me.rank);
    } else {
      line.textContent = P.unrated;
      delete line.dataset.rank;
    }
    const box = $("#lb-keep-off", d);
    box.checked = !!(me && me.hidden);
    box.disabled = !me;
  }
}
