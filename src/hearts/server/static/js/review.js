// Xem lại ván (review): a finished hand replayed trick by trick, every hand face
// up; download it as a hearts-hand/1 file, open such a file; Phân tích (Khó's look
// at South's decisions). The server checks every record and lays it out
// (POST /api/records/check): the page only shows what it is sent.
import { api } from "./api.js";
import { SEAT_NAME, R, T, cardShort, cardSpoken, isRed, signed } from "./i18n.js";
import { $, el } from "./dom.js";
import { KnewPanel } from "./knew.js";

const POLL_MS = 400;

function cardEl(card, seat) {
  const c = el("span", "rv-card" + (isRed(card) ? " red" : ""), cardShort(card));
  c.dataset.card = card;
  if (seat) c.dataset.seat = seat;
  c.setAttribute("aria-label", cardSpoken(card));
  return c;
}

function cardsText(cards) { return cards.map(cardShort).join(" "); }
// Whether South shot the moon in the hand `r` (the review's replay): every trick with
// a heart or Q♠ South's. The analysis weighs none of such a hand (docs/api.md, Analysis).
function southShot(r) {
  if (!r || !r.points) return false;
  const pointed = (t) => t.cards.some((p) => p.card === "QS" || p.card.endsWith("H"));
  return r.tricks.some(pointed) && r.tricks.every((t) => !pointed(t) || t.winner === r.seats[0]);
}

// Points with one decimal and a decimal comma, as the hint says them.
function num(x) { return T.decimal(x.toFixed(1).replace("-0.0", "0.0")); }

export class ReviewDialog {
  // current(): the State on screen (its finished hands can be reviewed).
  constructor({ current }) {
    this.current = current;
    this.dialog = $("#review");
    this.replay = null;    // the server's layout of the record on screen
    this.step = 0;         // 0: the pass; k: after trick k
    this.source = null;    // {hand: n} for a hand of the match on the table, or null (a file)
    this.analysis = null;
    this.poll = null;
    this.dialog.addEventListener("close", () => this.closed());
    this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.close(); });
    this.dialog.addEventListener("keydown", (e) => {
      if (!this.replay || e.target.matches("select, input")) return;
      if (e.key === "ArrowRight") { this.go(this.step + 1); e.preventDefault(); }
      if (e.key === "ArrowLeft") { this.go(this.step - 1); e.preventDefault(); }
    });
  }

  // ------------------------------------------------------------ the frame
  open() {
    this.opener = document.activeElement;
    const d = this.dialog;
    d.replaceChildren();
    const top = el("div", "help-top");
    top.append(el("h2", "", R.title));
    top.firstChild.id = "rv-h";
    const close = el("button", "ghost", R.close);
    close.type = "button";
    close.id = "rv-close";
    close.addEventListener("click", () => this.close());
    top.append(close);

    const source = el("div", "rv-source");
    const pick = el("select");
    pick.id = "rv-hand";
    pick.setAttribute("aria-label", R.pickHand);
    const s = this.current();
    const done = s ? (s.match.hands || []).length : 0;
    for (let n = 1; n <= done; n++) {
      const o = el("option", "", R.handN(n));
      o.value = String(n);
      pick.append(o);
    }
    pick.hidden = !done;
    pick.addEventListener("change", () => this.loadHand(Number(pick.value)));
    const file = el("label", "ghost rv-file");
    const input = el("input");
    input.type = "file";
    input.id = "rv-file";
    input.accept = ".json,application/json";
    input.addEventListener("change", () => { if (input.files && input.files[0]) this.loadFile(input.files[0]); input.value = ""; });
    file.append(el("span", "", R.openFile), input);
    const save = el("button", "ghost", R.download);
    save.type = "button";
    save.id = "rv-download";
    save.disabled = true;
    save.addEventListener("click", () => this.download());
    source.append(pick, file, save);

    const error = el("p", "nm-error");
    error.id = "rv-error";
    error.setAttribute("role", "alert");
    error.hidden = true;
    const body = el("div", "rv-body");
    body.id = "rv-body";
    body.append(el("p", "muted", done ? "" : R.noHand));
    d.append(top, source, error, body);
    if (d.showModal) d.showModal(); else d.setAttribute("open", "");
    close.focus();
    if (done) { pick.value = String(done); this.loadHand(done); }
  }

  close() {
    if (this.dialog.close) this.dialog.close(); else { this.dialog.removeAttribute("open"); this.closed(); }
  }

  closed() {
    clearTimeout(this.poll);
    this.poll = null;
    this.dialog.replaceChildren();
    this.replay = null;
    const back = this.opener;
    if (back && back.focus && !back.closest("[hidden]")) back.focus();
  }

  showError(text) {
    const e = $("#rv-error", this.dialog);
    if (!e) return;
    e.textContent = text || "";
    e.hidden = !text;
  }

  // ------------------------------------------------------------ loading
  async loadHand(n) {
    try {
      const record = await api.hand(n);
      this.show(await api.checkRecord(record), { hand: n });
    } catch (e) {
      this.showError(e.message || R.loadFailed);
    }
  }

  async loadFile(file) {
    let text;
    try { text = await file.text(); } catch { this.showError(R.readFailed); return; }
    try {
      this.show(await api.checkRecord(text), null);
    } catch (e) {
      // the server's message in the page's language, and what is wrong worded here
      const why = e.reason ? R.recordWhy(e.reason, cardShort, (seat) => SEAT_NAME[seat] || seat) : "";
      this.showError(why ? `${e.message}: ${why}` : e.message || R.badFile);
    }
  }

  show(replay, source) {
    clearTimeout(this.poll);
    this.poll = null;
    this.replay = replay;
    this.source = source;
    this.analysis = null;
    this.showError("");
    $("#rv-download", this.dialog).disabled = false;
    const pick = $("#rv-hand", this.dialog);
    if (!source && pick) pick.selectedIndex = -1;
    this.build();
    this.go(replay.tricks.length);
    if (source) this.resumeAnalysis();
  }

  download() {
    if (!this.replay) return;
    const text = JSON.stringify(this.replay.record, null, 2) + "\n";
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = el("a");
    a.href = url;
    a.download = `hearts-van-${this.replay.hand}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // ------------------------------------------------------------ the board
  build() {
    const r = this.replay;
    const body = $("#rv-body", this.dialog);
    body.replaceChildren();
    const title = el("p", "rv-title");
    title.id = "rv-title";
    const seats = el("div", "rv-seats");
    seats.id = "rv-seats";
    const table = el("div", "rv-table");
    table.id = "rv-table";
    const caption = el("p", "rv-caption");
    caption.id = "rv-caption";
    caption.setAttribute("aria-live", "polite");

    const nav = el("div", "rv-nav");
    const button = (id, text, label, to) => {
      const b = el("button", "ghost", text);
      b.type = "button";
      b.id = id;
      b.setAttribute("aria-label", label);
      b.addEventListener("click", () => this.go(to()));
      return b;
    };
    nav.append(
      button("rv-first", R.first, R.firstLabel, () => 0),
      button("rv-prev", R.prev, R.prevLabel, () => this.step - 1),
      button("rv-next", R.next, R.nextLabel, () => this.step + 1),
      button("rv-last", R.last, R.lastLabel, () => r.tricks.length),
    );
    const strip = el("div", "rv-strip");
    strip.id = "rv-strip";
    strip.setAttribute("role", "group");
    strip.setAttribute("aria-label", R.toTrick);
    for (let k = 0; k <= r.tricks.length; k++) {
      const b = el("button", "rv-step", k === 0 ? R.passStep : String(k));
      b.type = "button";
      b.dataset.step = String(k);
      b.setAttribute("aria-label", k === 0 ? R.passStepLabel : R.trickN(k));
      b.addEventListener("click", () => this.go(k));
      strip.append(b);
    }

    const analysis = el("section", "rv-analysis");
    analysis.id = "rv-analysis";
    const knew = el("section", "rv-knew");
    knew.id = "rv-knew";
    body.append(title, seats, table, caption, nav, strip, analysis, knew);
    const names = r.names || SEAT_NAME;
    this.knew = new KnewPanel(knew, (text) => this.showError(text));
    this.knew.reset(this.source ? this.source.hand : null, names);
    const pts = r.points ? " · " + r.seats.map((s) => `${names[s]} ${signed(r.points[s])}`).join(", ") : " · " + R.notDone;
    title.textContent = R.handN(r.hand) + (r.pass_direction !== "none" ? R.passing(r.pass_direction) : R.noPassing) + pts;
    this.renderAnalysis();
  }

  // Step k: the hands after trick k (all face up), trick k on the table.
  go(k) {
    const r = this.replay;
    if (!r) return;
    k = Math.max(0, Math.min(r.tricks.length, k));
    this.step = k;
    const names = r.names || SEAT_NAME;
    const gone = new Set(r.tricks.slice(0, k).flatMap((t) => t.cards.map((p) => p.card)));
    const trick = k > 0 ? r.tricks[k - 1] : null;
    const taken = trick ? trick.taken : Object.fromEntries(r.seats.map((s) => [s, 0]));

    const seats = $("#rv-seats", this.dialog);
    seats.replaceChildren();
    for (const seat of r.seats) {
      const row = el("div", "rv-seat");
      row.dataset.reviewSeat = seat;
      const head = el("div", "rv-seat-head");
      head.append(el("span", "rv-name", names[seat]), el("span", "rv-taken", R.points(signed(taken[seat]))));
      const cards = el("div", "rv-hand");
      const held = k === 0 && r.pass_direction !== "none" ? r.deal[seat] : r.start[seat];
      for (const c of held.filter((c) => !gone.has(c))) cards.append(cardEl(c));
      row.append(head, cards);
      if (k === 0 && r.passes[seat]) {
        row.append(el("div", "rv-pass", R.passTo(names[r.pass_to[seat]], cardsText(r.passes[seat]))));
      }
      seats.append(row);
    }

    const table = $("#rv-table", this.dialog);
    table.replaceChildren();
    const caption = $("#rv-caption", this.dialog);
    if (trick) {
      for (const p of trick.cards) {
        const slot = el("div", "rv-play" + (p.seat === trick.winner ? " won" : ""));
        slot.append(el("span", "rv-who", names[p.seat]), cardEl(p.card, p.seat));
        table.append(slot);
      }
      caption.textContent = R.caption(k, names[trick.leader]) +
        (trick.winner ? R.tookIt(names[trick.winner], signed(trick.points)) : " · " + R.notDone);
    } else {
      caption.textContent = r.pass_direction === "none" ? R.noPassCaption : R.passCaption;
    }
    this.dialog.dataset.reviewStep = String(k);
    if (this.knew) this.knew.go(k);
    for (const b of this.dialog.querySelectorAll(".rv-step")) b.setAttribute("aria-current", b.dataset.step === String(k) ? "step" : "false");
    $("#rv-first", this.dialog).disabled = $("#rv-prev", this.dialog).disabled = k === 0;
    $("#rv-next", this.dialog).disabled = $("#rv-last", this.dialog).disabled = k === r.tricks.length;
  }

  // ------------------------------------------------------------ Phân tích
  renderAnalysis() {
    const box = $("#rv-analysis", this.dialog);
    if (!box) return;
    box.replaceChildren();
    for (const b of this.dialog.querySelectorAll(".rv-step")) delete b.dataset.costly;
    if (!this.source) return;  // only the hands of the match on the table
    const a = this.analysis;
    if (!a || a.status === "cancelled" || a.status === "failed") {
      const b = el("button", "ghost", R.analyse);
      b.type = "button";
      b.id = "rv-analyse";
      b.addEventListener("click", () => this.startAnalysis());
      box.append(b, el("span", "muted small", R.analyseAbout));
      if (a && a.status === "failed") box.append(el("p", "nm-error", R.analyseFailed));
      return;
    }
    if (a.status === "running") {
      const bar = el("progress");
      bar.id = "rv-progress";
      bar.max = a.total || 1;
      bar.value = a.done;
      bar.setAttribute("aria-label", R.analysing);
      box.append(el("span", "", R.progress(a.done, a.total)), bar);
      return;
    }
    const list = el("ol", "rv-findings");
    list.id = "rv-findings";
    // a moon of South's is measured by its result: nothing in it cost a point
    if (!a.decisions.length) box.append(el("p", "", southShot(this.replay) ? R.moonShot : R.agrees(a.total)));
    else box.append(el("p", "", R.differs(a.decisions.length, a.total)));
    for (const [i, d] of a.decisions.entries()) {
      const li = el("li", "rv-finding" + (d.costly ? " costly" : ""));
      // its number beside the entry's first line (the list's own marker sat on the
      // button's last line at 390 px); the list says the numbers to screen readers
      const n = el("span", "rv-n", `${i + 1}.`);
      n.setAttribute("aria-hidden", "true");
      li.append(n);
      li.dataset.costly = d.costly ? "true" : "false";
      li.dataset.step = String(d.trick);
      const what = d.kind === "pass"
        ? R.passDiff(cardsText(d.played), cardsText(d.best))
        : R.playDiff(d.trick, cardShort(d.played), cardShort(d.best));
      // A negative cost: fewer points for South, yet Khó weighs the others' points and moons too.
      const cost = d.cost > 0 ? R.costMore(num(d.cost))
        : d.cost < 0 ? R.costLess(num(-d.cost)) : R.costSame;
      const b = el("button", "rv-jump", `${what} · ${cost}`);
      b.type = "button";
      b.addEventListener("click", () => this.go(d.trick));
      li.append(b);
      list.append(li);
      if (d.costly) {
        const step = this.dialog.querySelector(`.rv-step[data-step="${d.trick}"]`);
        if (step) step.dataset.costly = "true";
      }
    }
    box.append(list);
  }

  async startAnalysis() {
    if (!this.source) return;
    try {
      this.analysis = await api.startAnalysis(this.source.hand);
    } catch (e) {
      this.showError(e.message || R.analyseError);
      return;
    }
    this.renderAnalysis();
    this.follow();
  }

  // An analysis already asked for this hand (the dialog was closed meanwhile).
  async resumeAnalysis() {
    const hand = this.source.hand;
    try {
      const a = await api.analysis(hand);
      if (this.source && this.source.hand === hand) { this.analysis = a; this.renderAnalysis(); this.follow(); }
    } catch { /* none yet */ }
  }

  follow() {
    clearTimeout(this.poll);
    const a = this.analysis;
    if (!a || a.status !== "running") return;
    const hand = a.hand;
    this.poll = setTimeout(async () => {
      try {
        const next = await api.analysis(hand);
        if (!this.replay || !this.source || this.source.hand !== hand) return;
        this.analysis = next;
        this.renderAnalysis();
      } catch (e) {
        // Gone (another server process, or the server restarted): offer to start again.
        if (e.status === 404 && this.analysis) { this.analysis = { ...this.analysis, status: "failed" }; this.renderAnalysis(); return; }
      }
      this.follow();
    }, POLL_MS);
  }
}
