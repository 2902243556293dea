// Play with everyone (docs/api.md, Public tables): "Chơi với mọi người" opens the
// table's rules and "Tìm bàn"; the table is a room, so room.js draws it, and this
// module adds what a public table has beyond a room: the lobby's countdown, the
// queue for the next hand, reactions over the seats, hiding a player, the rating
// after the match. Loaded only when asked for (the first visit stays light).
import { publicApi } from "./api.js";
import { NoSocket } from "./live.js";
import { NewMatchDialog } from "./newmatch.js";
import { T, SEAT_NAME, isDefaultRules } from "./i18n.js";
import { P, rating, ratingChange } from "./i18n-public.js";
import { savedName, saveName } from "./roomdialog.js";
import { $, el, markBusy } from "./dom.js";

const PUBLIC_KEY = "hearts-public"; // set while this browser seeks or sits at a public table
const REACTIONS = ["like", "wow", "laugh", "sad", "nice", "sorry", "thanks"];
const SHOWN_MS = 2000;

function flag(on) {
  try { if (on) localStorage.setItem(PUBLIC_KEY, "1"); else localStorage.removeItem(PUBLIC_KEY); } catch { /* private mode */ }
}
export function flagged() {
  try { return !!localStorage.getItem(PUBLIC_KEY); } catch { return false; }
}

// The public table's stylesheet, once, beside the page's own (same versioned path).
function styled() {
  if ($("#public-css")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.id = "public-css";
  link.href = new URL("../public.css", import.meta.url).href;
  document.head.append(link);
}

// The public table this player is at (seated or queued), or null: a page reopened
// finds it again.
export async function findTable() {
  try {
    const got = await publicApi.table();
    if (!got.code) flag(false);
    return got.code;
  } catch {
    return null;
  }
}


// The public tables' settings the dialog words (the lobby's wait, the turn), or null.
async function settings() {
  try {
    return (await publicApi.table()).settings || null;
  } catch {
    return null;
  }
}

// "Chơi với mọi người": the rules of "Trận mới" (the standard table at first), the
// computers' level, the name strangers see; "Tìm bàn" seats the player.
export class PublicDialog extends NewMatchDialog {
  constructor() {
    let dialog = $("#public-dialog");
    if (!dialog) {
      dialog = el("dialog", "public-dialog");
      dialog.id = "public-dialog";
      dialog.setAttribute("aria-labelledby", "nm-h");
      document.body.append(dialog);
    }
    super({ current: () => null, underWay: () => false, start: null, dialog: "#public-dialog", opener: "#public-open" });
    styled();
  }

  async open() {
    await super.open();
    $("#nm-h", this.dialog).textContent = P.title;
    $("#nm-default", this.dialog).hidden = true;
    $("#nm-start", this.dialog).textContent = P.find;
    const about = el("p", "nm-note", P.seekAbout(await settings()));
    const label = el("label", "nm-target room-name-field");
    const input = el("input");
    Object.assign(input, { type: "text", name: "public-name", maxLength: 20, autocomplete: "nickname", placeholder: P.namePlaceholder, value: savedName() });
    label.append(el("span", "", P.nameLabel), " ", input);
    const board = el("button", "ghost public-board-open", P.board);
    board.type = "button";
    board.addEventListener("click", () => openBoard());
    $("#nm-error", this.dialog).before(about, label, board);
  }

  async go(rules) {
    const name = this.form.elements["public-name"].value.trim();
    const body = { rules: isDefaultRules(rules) ? null : { ...rules }, level: this.level() || "medium" };
    if (name) { body.name = name; saveName(name); }
    const button = $("#nm-start", this.dialog);
    button.disabled = true;
    try {
      const got = await publicApi.seek(body);
      flag(true);
      location.assign(`/r/${got.code}`);
    } catch (e) {
      button.disabled = false;
      const err = $("#nm-error", this.dialog);
      err.textContent = e.message || P.seekFailed;
      err.hidden = false;
    }
  }
}

export async function openBoard() {
  const { Leaderboard } = await import("./leaderboard.js");
  styled();
  new Leaderboard().open();
}

// A bubble over a seat at the table's top edge, which would cut it: over the seat's
// fan of backs, or beside its plate when no fan is drawn (public.css).
function inside(bubble, root) {
  bubble.classList.remove("on-fan", "beside");
  if (bubble.getBoundingClientRect().top >= $("#table").getBoundingClientRect().top + 4) return;
  const fan = $(".fan", root);
  bubble.classList.add(fan && fan.getClientRects().length ? "on-fan" : "beside");
}

// What a public table adds to a room's page (room.js's RoomPage).
export class PublicTable {
  constructor(page) {
    this.page = page;
    this.seen = new Set();  // the reactions' ids shown already
    this.over = {};         // seat -> {reaction, until}: the reactions over the seats now
    this.startAt = null;    // performance.now() when the lobby starts
    this.leaveAsk = P.leaveAsk;
    this.words = P.words;
    this.leaveWord = P.leaveTable;
    flag(true);
    styled();
    const badge = $("#mode-badge");
    badge.textContent = P.mode;
    badge.dataset.public = "true";
    document.title = `Hearts – ${P.title}`;
    setInterval(() => this.countdown(), 1000);
  }

  // The screens before a seat at the table: the lobby, the queue, not at this table.
  // True when this module drew the screen; false: room.js draws the table.
  takes(room) {
    const pub = room.public || {};
    this.startAt = typeof pub.start_in === "number" ? performance.now() + pub.start_in * 1000 : null;
    if (room.you && room.state && room.phase !== "lobby") return false;
    if (!room.you && room.phase === "over") { flag(false); this.page.gone("match_over"); return true; }
    if (!room.you && room.phase === "lobby") { flag(false); this.page.gone("public", P.notHere); return true; }
    this.card(room, !room.you);
    return true;
  }

  card(room, queued) {
    const page = this.page, box = $("#room-screen");
    const screen = queued ? "public-queue" : "public-lobby";
    if (page.screen !== screen) {
      page.screen = screen;
      const card = el("section", "room-card public-card");
      card.append(el("h2", "", queued ? P.queuedTitle : P.lobbyTitle), el("p", "room-rules public-rules"));
      const list = el("ol", "room-seats public-seats");
      const note = el("p", "public-start");
      note.setAttribute("role", "status");
      const leave = el("button", "ghost", P.leaveTable);
      leave.type = "button";
      leave.id = "public-leave-lobby";
      leave.addEventListener("click", () => this.leave());
      const actions = el("div", "room-actions");
      actions.append(leave);
      card.append(list, note, el("p", "muted", queued ? P.queued : P.lobbyNote), actions);
      box.replaceChildren(card);
      page.showScreen(true);
    }
    $(".public-rules", box).textContent = page.aboutRoom(room);
    page.renderSeatList($(".public-seats", box), room, false);
    this.countdown();
    document.body.dataset.phase = queued ? "queued" : "lobby";
    document.body.dataset.roomPhase = room.phase;
    markBusy(false);
    page.renderBar(room);
  }

  countdown() {
    const note = $(".public-start");
    if (!note || this.page.screen !== "public-lobby") return;
    if (this.startAt === null) { note.textContent = P.waitingHuman; delete note.dataset.startIn; return; }
    const left = Math.max(0, Math.ceil((this.startAt - performance.now()) / 1000));
    note.dataset.startIn = String(left);
    note.textContent = left > 0 ? P.startsIn(left) : P.startingNow;
  }

  // Leaving a public table is for good (in a match it counts as last place): room.js
  // asks first during a match, then calls this.
  async leaveCall() {
    flag(false);
    return publicApi.leave(this.page.code);
  }

  leave() { this.page.leave(); }

  // ------------------------------------------------------------ the table
  // After each paint of the table: the reaction buttons, the reactions over the
  // seats, "Ẩn" beside the other humans, the rating once the match is over.
  decorate(room, s) {
    const pub = room.public || {};
    this.reactionBar(room);
    const now = performance.now();
    for (const r of pub.reactions || []) {
      if (this.seen.has(r.id)) continue;
      this.seen.add(r.id);
      this.over[r.seat] = { reaction: r.reaction, until: now + SHOWN_MS };
      const names = s.names || SEAT_NAME;
      if (r.seat !== "S") this.page.table.say(P.reacted(names[r.seat] || r.seat, P.reactions[r.reaction] || r.reaction), "info");
      clearTimeout(this.overTimer);
      this.overTimer = setTimeout(() => this.page.table.repaint(), SHOWN_MS + 50);
    }
    for (const root of document.querySelectorAll("#table .seat[data-seat]")) {
      const shown = this.over[root.dataset.seat];
      let bubble = $(".reaction-bubble", root);
      if (shown && shown.until > now) {
        root.dataset.reactionShown = shown.reaction;
        if (!bubble) { bubble = el("span", "reaction-bubble"); root.append(bubble); }
        bubble.textContent = P.reactions[shown.reaction] || shown.reaction;
        inside(bubble, root);
      } else {
        delete root.dataset.reactionShown;
        if (bubble) bubble.remove();
      }
    }
    this.hideButtons(room);
    this.rated(room, s);
  }

  reactionBar(room) {
    let bar = $("#reaction-bar");
    if (!bar) {
      bar = el("div", "reaction-bar");
      bar.id = "reaction-bar";
      bar.setAttribute("role", "group");
      bar.setAttribute("aria-label", P.reactionsLabel);
      for (const name of REACTIONS) {
        const b = el("button", "ghost reaction", P.reactions[name]);
        b.type = "button";
        b.dataset.reaction = name;
        b.setAttribute("aria-label", P.reactionNames[name]);
        b.addEventListener("click", () => this.react(name));
        bar.append(b);
      }
      $(".game .actionbar").after(bar);
    }
    bar.hidden = !(room.you && room.phase === "playing" && this.page.screen === "table");
  }

  // Over the room's socket while it is open (the others see it pushed at once), else
  // by REST; a second try is refused as too soon, nothing shown twice.
  async send(name) {
    const live = this.page.link.live;
    if (live) {
      try {
        return await live.act("react", { reaction: name });
      } catch (e) {
        if (!(e instanceof NoSocket)) throw e;
      }
    }
    return publicApi.react(this.page.code, name);
  }

  async react(name) {
    try {
      this.page.table.receive(await this.send(name));
    } catch (e) {
      if (e.room) this.page.table.receive(e.room);
      this.page.table.say(e.code === "network" ? T.netError : e.message || T.error);
    }
  }

  // "Ẩn" beside each other human in the list of players: their name and reactions
  // are hidden from this player for the rest of the match.
  hideButtons(room) {
    const hidden = new Set((room.public || {}).hidden || []);
    for (const li of document.querySelectorAll("#room-players .room-seat")) {
      const seat = li.dataset.seat;
      const other = li.dataset.kind === "human" && seat !== room.you && room.phase === "playing";
      let b = $(".public-hide", li);
      if (!other) { if (b) b.remove(); continue; }
      if (!b) {
        b = el("button", "ghost rs-remove public-hide");
        b.type = "button";
        b.addEventListener("click", () => this.hide(seat, b.dataset.hidden !== "true"));
        li.append(b);
      }
      const isHidden = hidden.has(seat);
      b.dataset.hidden = String(isHidden);
      b.textContent = isHidden ? P.unhide : P.hide;
      b.setAttribute("aria-label", isHidden ? P.unhideLabel : P.hideLabel($(".rs-name", li).textContent));
    }
  }

  async hide(seat, hidden) {
    try {
      this.page.table.receive(await publicApi.hide(this.page.code, seat, hidden));
    } catch (e) {
      if (e.room) this.page.table.receive(e.room);
      this.page.table.say(e.code === "network" ? T.netError : e.message || T.error);
    }
  }

  // The player's place and rating change, once the match is over and rated; and the
  // leaderboard's button.
  rated(room, s) {
    const panel = $("#room-panel");
    let box = $("#public-after", panel);
    if (!box) {
      box = el("div", "public-after");
      box.id = "public-after";
      const line = el("p", "public-rated");
      line.id = "public-rated";
      line.setAttribute("role", "status");
      const board = el("button", "ghost public-board-open", P.board);
      board.type = "button";
      board.addEventListener("click", () => openBoard());
      box.append(line, board);
      panel.append(box);
    }
    const r = (room.public || {}).rated;
    const line = $("#public-rated", box);
    line.hidden = !(s.match.over && r);
    line.textContent = line.hidden ? "" : P.rated(r.place, r.people, rating(r.before), rating(r.after), ratingChange(r.after - r.before));
  }
}
