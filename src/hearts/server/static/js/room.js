// Play with friends (docs/api.md, Rooms): the join screen, the lobby and what a room's
// table shows besides the table itself. The server sends each viewer the table from
// their own seat in the single-player State's shape: the same table controller
// (tablepage.js) draws it, fed by the room's transport (live.js's RoomLink: the
// socket or the long poll, a Room for each action and pushes). This module is the
// room's mode of that table: which screen a Room shows, the words of its message line
// (who is waited for, the time left), the seats' marks (away, automatic plays).
import { roomApi } from "./api.js";
import * as fairness from "./fairness.js";
import { RoomLink } from "./live.js";
import { TablePage } from "./tablepage.js";
import { RoomDialog, savedName, saveName } from "./roomdialog.js";
import { A, T, W, SEAT_NAME, rulesLine, isDefaultRules, rulesReady } from "./i18n.js";
import { qrDetails, wireShare } from "./share.js";
import { $, el, markBusy, sleep } from "./dom.js";
import { CODE_IN_PATH, forget, publicFlag, remember, remembered, roomLink } from "./dom.js";

// The server paces the computers (a card about every 0.7 s): the page shows each card
// as it comes, a little apart when several come at once.
const PACE = { gap: 300, hold: 900, flight: 280 };
const names = (s) => s.names || SEAT_NAME;

// A seat the computer plays for now: the server keeps the mark until the player acts,
// but a player who is back (connected) loses it at once on every screen.
const autoNow = (seat) => !!seat.auto && !(seat.kind === "human" && seat.connected);

function goHome() {
  location.assign("/");
}

// At /r/<code>, or at "/" in a browser that sits in a room whose match goes on, this
// module takes the page (true); otherwise the single-player page goes on (false) and
// main.js wires "Chơi với bạn bè".
export async function enterRoom({ current }) {
  const inPath = CODE_IN_PATH.exec(location.pathname);
  if (inPath) {
    // a code read aloud or typed in lower case is the same room: codes are upper case
    const code = inPath[1].toUpperCase();
    if (code !== inPath[1]) history.replaceState(null, "", `/r/${code}`);
    new RoomPage(code).start(null);
    return true;
  }
  const code = remembered();
  if (code) {
    let room = null;
    try { room = await roomApi.get(code); } catch (e) { if (e.status === 404) forget(code); }
    if (room && room.you && room.phase !== "over") {
      history.replaceState(null, "", `/r/${code}`);
      new RoomPage(code).start(room);
      return true;
    }
    if (room) forget(code);
  }
  if (publicFlag()) { // a public table this browser sought: is it still there?
    const found = await (await import("./public.js")).findTable();
    if (found) {
      history.replaceState(null, "", `/r/${found}`);
      new RoomPage(found).start(null);
      return true;
    }
  }
  return false;
}

// "Chơi với bạn bè": the room's rules, then the room made and its link opened.
let dialog = null;
export function openRoomDialog({ current }) {
  dialog ||= new RoomDialog({
    current,
    create: async (body) => {
      const room = await roomApi.create(body);
      remember(room.code);
      location.assign(`/r/${room.code}`);
    },
  });
  dialog.open();
}

class RoomPage {
  constructor(code) {
    this.code = code;
    this.screen = "";       // "join" | "lobby" | "table" | "gone"
    this.showing = null;    // the Room whose State is on the table
    this.deadlineAt = null; // performance.now() when the waited-for turn is played for them
    // what the table controller asks of a room (tablepage.js, "the mode")
    this.waitText = W.wait;
    this.mergeNews = true;
    this.holdOnOpen = false;
    this.link = new RoomLink(code);
    this.table = new TablePage({ transport: this.link, mode: this });
  }

  // ------------------------------------------------------------ start and feed
  async start(room) {
    document.body.dataset.mode = "room";
    document.body.dataset.phase = "loading";
    markBusy(true);
    const badge = $("#mode-badge");
    badge.dataset.mode = "room";
    badge.textContent = W.mode;
    document.title = W.title;
    window.dispatchEvent(new Event("resize")); // the top bar changed: measure it again
    for (let attempt = 0; !room; attempt++) {
      try {
        room = await roomApi.get(this.code);
      } catch (e) {
        if (e.status === 404 || e.status === 400) { this.gone(e.code, e.message); return; }
        if (e.code === "moved") return; // to another device: transfer.js says so
        $("#message").textContent = T.netError;
        await sleep(Math.min(5000, 500 * 2 ** attempt));
      }
    }
    await rulesReady; // asked for as the page started, beside the Room
    this.table.receive(room);
    this.link.start(room.version, {
      onRoom: (r) => this.table.receive(r),
      onGone: (err) => this.gone(err.code, err.message),
      onLink: (how) => {
        document.body.dataset.live = how;
        const net = $("#room-bar-net");
        if (net) net.hidden = how !== "down";
        this.barVisibility();
      },
    });
    setInterval(() => this.tick(), 1000);
  }

  // A Room from any source (an action's answer, the socket, the long poll): the
  // newest wins; an older one is dropped.
  accept(room) {
    if (typeof room.version !== "number") return false;
    const old = this.table.newest, live = this.link.live;
    if (old && room.version < old.version) return false;
    if (old && room.version === old.version && JSON.stringify(room.seats) === JSON.stringify(old.seats)) return false;
    if (old && !old.you && room.you && live) live.reconnect(); // seated now
    if (live) live.version = Math.max(live.version, room.version); // the long poll's "after"
    this.deadlineAt = typeof room.deadline === "number" ? performance.now() + room.deadline * 1000 : null;
    if (room.you) remember(this.code);
    this.offerSeed(room);
    return true;
  }

  stateOf(room) { return room.state || null; }

  // This seat's seed for the room's next deal (docs/fairness.md, "Rooms: whose
  // seeds"), sent once per promised deal: in the lobby and as soon as a hand is over
  // (not mid-hand, where a new version of the room would cost the computers a move),
  // so that whoever deals, or the server's timer, deals with it.
  async offerSeed(room) {
    const f = room.fairness;
    const h = room.state && room.state.hand;
    if (!room.you || !f || !f.next_commitment || room.phase === "over") return;
    if (room.phase !== "lobby" && !(h && h.phase === "done")) return;
    if (this.seeding === f.next_commitment || fairness.isKept(f.next_commitment)) return;
    this.seeding = f.next_commitment;
    const sent = fairness.seedFor(room);
    try {
      const answer = await this.link.act("seed", { client_seed: sent.seed, commitment: sent.promised });
      fairness.kept(sent, answer);
      this.table.receive(answer);
    } catch (e) {
      if (e.room) this.table.receive(e.room); // dealt meanwhile: the next deal is another one
    } finally {
      if (this.seeding === sent.promised && !fairness.isKept(sent.promised)) this.seeding = null;
    }
  }

  // A public table's own parts (public.js), loaded with its first Room.
  async publicPart() {
    if (!this.pub) this.pub = new (await import("./public.js")).PublicTable(this);
    return this.pub;
  }

  busyChanged() {
    const startBtn = this.screen === "lobby" && $("#room-start");
    if (startBtn) startBtn.disabled = this.table.acting;
  }

  // The screen a Room shows, in turn: the State to draw on the table, or null when
  // another screen (the join screen, the lobby, a public table's) is drawn instead.
  async arrive(room) {
    if (room.public && (await this.publicPart()).takes(room)) return null;
    if (!room.you) {
      forget(this.code);
      if (room.phase === "lobby" && !room.full) this.joinScreen(room);
      else this.gone(room.phase === "lobby" ? "room_full" : room.phase === "over" ? "match_over" : "room_started");
      return null;
    }
    if (room.phase === "lobby" || !room.state) { this.lobbyScreen(room); return null; }
    this.tableScreen(room);
    this.noticeChanges(this.table.onScreen, room);
    this.showing = room;
    return room.state;
  }

  // The room's words, a public table's where it says "bàn" for "phòng".
  words() { return this.pub ? { ...W, ...this.pub.words } : W; }

  // What changed between two Rooms that the players should read: a player gone for
  // good, a pass made, all passes made, a decision made for an absent player.
  noticeChanges(prev, room) {
    if (prev && this.noticeLeaving(prev, room)) return;
    const s = room.state, p = prev && prev.state;
    if (!p || !s || p.match.hand_number !== s.match.hand_number) return;
    const n = names(s), me = s.seats[0], say = (text) => this.table.say(text, "info");
    if (p.hand.phase === "pass" && s.hand.phase !== "pass") { say(W.allPassed); return; }
    if (s.hand.phase === "pass") {
      const before = new Set(prev.waiting_for || []);
      const now = new Set(room.waiting_for || []);
      const passed = [...before].filter((seat) => !now.has(seat) && seat !== me);
      const autoPass = (room.auto_plays || []).find((a) => a.step === "pass" && passed.includes(a.seat));
      if (autoPass) say(W.autoPassed(n[autoPass.seat]));
      else if (passed.length) say(W.passedOne(passed.map((seat) => n[seat]).join(", ")));
      return;
    }
    const had = new Set((prev.auto_plays || []).map((a) => `${a.seat}:${a.step}:${a.card}`));
    const fresh = (room.auto_plays || []).filter((a) => a.step === "play" && !had.has(`${a.seat}:${a.step}:${a.card}`));
    if (fresh.length) {
      const a = fresh[fresh.length - 1];
      say(W.autoPlayed(n[a.seat], a.card));
    }
  }

  // A human who left for good (the server keeps their name on the computer's seat)
  // and, in a room of friends, who runs it after them; said once, as it happens.
  noticeLeaving(prev, room) {
    const was = new Map(prev.seats.map((x) => [x.seat, x.kind]));
    const gone = room.seats.find((x) => x.kind === "computer" && x.left && was.get(x.seat) === "human");
    if (!gone) return false;
    const w = this.words();
    const said = [w.leftSeat(gone.left, gone.name)];
    if (!room.public && room.creator !== prev.creator) {
      const host = room.seats.find((x) => x.seat === room.creator);
      said.push(room.creator === room.you ? w.youHost : w.newHost(host ? host.name : room.creator));
    }
    this.table.say(said.join(". "), "info");
    return true;
  }

  // The Room whose State the table draws (the newest while none is drawn yet).
  room() { return this.showing || this.table.newest; }

  isAuto(p) {
    const room = this.room();
    return !!room && (room.auto_plays || []).some((a) => a.step === "play" && a.seat === p.seat && a.card === p.card);
  }

  // A card played, as the live region reads it: "(tự động)" when played for them.
  played(s, p) { return T.played(names(s)[p.seat], p.card) + (this.isAuto(p) ? ` ${W.auto}` : ""); }

  act(call, still) { return this.table.act(call, still); }

  gone(code, message) {
    this.link.stop();
    forget(this.code);
    this.screen = "gone";
    const box = $("#room-screen");
    box.replaceChildren($("#room-gone-template").content.cloneNode(true));
    $("#gone-text", box).textContent = W.gone[code] || message || W.gone.room_not_found;
    $("#gone-home", box).addEventListener("click", goHome);
    this.showScreen(true);
    document.body.dataset.phase = "gone";
    markBusy(false);
    this.renderBar(null);
  }

  showScreen(on) {
    $("#room-screen").hidden = !on;
    $("main.layout").hidden = on;
  }

  // ------------------------------------------------------------ join
  joinScreen(room) {
    const box = $("#room-screen");
    if (this.screen !== "join") {
      this.screen = "join";
      box.replaceChildren($("#room-join-template").content.cloneNode(true));
      const input = $("#join-name", box);
      input.value = savedName();
      $("#join-form", box).addEventListener("submit", (e) => {
        e.preventDefault();
        this.join();
      });
      $("#join-home", box).addEventListener("click", goHome);
      this.showScreen(true);
      input.focus();
    }
    // an empty name is the server's default: "Khách N" after the seat taken
    const humans = room.seats.filter((s) => s.kind === "human").length;
    const free = room.seats.findIndex((s) => s.kind === "empty");
    $("#join-name", box).placeholder = W.guest(free + 1);
    const who = room.seats.filter((s) => s.kind === "human").map((s) => s.name).join(", ");
    $("#join-about", box).textContent = W.inRoom(who, humans, room.seats.length, this.aboutRoom(room));
    document.body.dataset.phase = "join";
    this.renderBar(room);
  }

  async join() {
    const box = $("#room-screen");
    const name = $("#join-name", box).value.trim();
    const err = $("#join-error", box);
    err.hidden = true;
    $("#join-go", box).disabled = true;
    try {
      if (name) saveName(name);
      const sent = fairness.seedFor(this.table.newest);
      const room = await roomApi.join(this.code, name, sent.seed);
      fairness.kept(sent, room);
      remember(this.code);
      this.table.receive(room);
    } catch (e) {
      if (e.room) this.table.receive(e.room);
      err.textContent = e.code === "network" ? T.netError : e.message || T.error;
      err.hidden = false;
    } finally {
      const go = $("#join-go", box);
      if (go) go.disabled = false;
    }
  }

  aboutRoom(room) {
    const rules = isDefaultRules(room.rules) ? T.rules.defaultFor(room.rules.players) : rulesLine(room.rules);
    const turn = room.turn_seconds ? W.perTurn(room.turn_seconds) : W.noLimit;
    return W.about(rules, T.level[room.level] || room.level, turn);
  }

  // ------------------------------------------------------------ lobby
  lobbyScreen(room) {
    const box = $("#room-screen");
    if (this.screen !== "lobby") {
      this.screen = "lobby";
      box.replaceChildren($("#room-lobby-template").content.cloneNode(true));
      const link = $("#room-link", box);
      link.href = roomLink(this.code);
      link.textContent = roomLink(this.code);
      link.addEventListener("click", (e) => { e.preventDefault(); this.copyLink(); });
      $("#room-copy", box).addEventListener("click", () => this.copyLink());
      wireShare($("#room-share", box), W.title, W.shareText, roomLink(this.code));
      $(".invite", box).append(qrDetails(roomLink(this.code), A.qrRoom));
      $("#room-start", box).addEventListener("click", () => {
        this.act((v) => roomApi.start(this.code, v, fairness.seedFor(this.table.newest).seed),
          (r) => r.phase === "lobby" && r.creator === r.you);
      });
      $("#room-leave", box).addEventListener("click", () => this.leave());
      this.showScreen(true);
    }
    $("#lobby-rules", box).textContent = this.aboutRoom(room);
    this.renderSeatList($("#lobby-seats", box), room, true);
    const creator = room.creator === room.you;
    const start = $("#room-start", box);
    start.hidden = !creator;
    start.disabled = this.table.acting;
    $("#lobby-note", box).textContent = creator ? W.youStart : W.starting;
    document.body.dataset.phase = "lobby";
    document.body.dataset.roomPhase = "lobby";
    this.renderBar(room);
  }

  async copyLink() {
    const url = roomLink(this.code);
    const say = $("#room-copied");
    try {
      await navigator.clipboard.writeText(url);
      if (say) say.textContent = W.copied;
    } catch {
      // no clipboard here (http, an old browser): select the link for the player
      const link = $("#room-link");
      if (link) {
        const range = document.createRange();
        range.selectNodeContents(link);
        const sel = getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
      if (say) say.textContent = W.copyFailed;
    }
  }

  // Who sits where, in play order from the viewer: name (as text), the creator,
  // connected or not, a computer, an empty seat; the creator may remove a guest.
  renderSeatList(list, room, lobby) {
    const names = room.state ? room.state.names || {} : {};
    list.replaceChildren();
    room.seats.forEach((seat, i) => {
      const li = el("li", "room-seat");
      li.dataset.seat = seat.seat;
      li.dataset.kind = seat.kind;
      li.dataset.connected = seat.connected ? "true" : "false";
      const where = room.seats.length === 4 ? W.around[seat.seat] : i === 0 ? W.you : W.seatN(i + 1);
      const pos = el("span", "rs-pos", where);
      const name = el("span", "rs-name");
      if (seat.kind === "empty") name.textContent = W.emptySeat;
      else name.textContent = seat.name || names[seat.seat] || seat.seat;
      const tags = [];
      if (seat.seat === room.creator) tags.push(W.creator);
      if (seat.kind === "human") tags.push(seat.connected ? W.connected : W.disconnected);
      if (seat.kind === "computer") tags.push(W.computer(T.level[room.level] || ""));
      if (seat.kind === "computer" && seat.left) tags.push(this.words().tookOver(seat.left));
      if (seat.kind === "empty") tags.push(W.emptyTag);
      if (autoNow(seat)) tags.push(W.auto);
      const dot = el("span", "rs-dot");
      dot.setAttribute("aria-hidden", "true");
      li.append(dot, pos, name, el("span", "rs-tags", tags.join(" · ")));
      if (lobby && room.creator === room.you && seat.kind === "human" && seat.seat !== room.you) {
        const b = el("button", "ghost rs-remove", W.remove);
        b.type = "button";
        b.setAttribute("aria-label", W.removeLabel(seat.name));
        const there = (r) => r.phase === "lobby" && r.seats.some((x) => x.seat === seat.seat && x.name === seat.name);
        b.addEventListener("click", () => this.act((v) => roomApi.remove(this.code, v, seat.seat), there));
        li.append(b);
      }
      list.append(li);
    });
  }

  async leave() {
    const room = this.table.newest;
    if (room && room.phase === "playing" && !this.confirmLeave) {
      this.confirmLeave = true;
      this.renderBar(room);
      return;
    }
    let version = room ? room.version : 0;
    for (let tries = 0; ; tries++) {
      try {
        await (this.pub ? this.pub.leaveCall() : roomApi.leave(this.code, version));
        break;
      } catch (e) {
        if (e.code === "network") { this.table.say(T.netError); return; }
        // another player moved the room on meanwhile (409 stale, with the Room): leave
        // the room as it is now, not only this page (the seat stayed taken)
        if (e.code === "stale" && e.room && tries < 3) { version = e.room.version; continue; }
        break; // not in the room (any more): nothing to leave
      }
    }
    forget(this.code);
    this.link.stop();
    goHome();
  }

  // The top bar of a room: the connection, "Rời phòng" (asked first during a match)
  // or, once the match is over, "Chơi một mình".
  renderBar(room) {
    const bar = $("#room-bar");
    const key = [room ? room.phase : "none", room && room.you ? "in" : "out", this.confirmLeave ? "ask" : ""].join(":");
    if (bar.dataset.key === key) return;
    bar.dataset.key = key;
    bar.replaceChildren();
    const net = el("span", "room-net", W.netDown);
    net.id = "room-bar-net";
    net.hidden = document.body.dataset.live !== "down";
    bar.append(net);
    if (room && room.you && room.phase === "playing" && this.screen === "table") {
      if (this.confirmLeave) {
        const ask = el("span", "room-ask", this.pub ? this.pub.leaveAsk : W.leaveAsk);
        const yes = el("button", "danger", this.leaveWord());
        yes.type = "button";
        yes.id = "room-leave-yes";
        yes.addEventListener("click", () => this.leave());
        const no = el("button", "ghost", W.cancel);
        no.type = "button";
        no.addEventListener("click", () => { this.confirmLeave = false; this.renderBar(this.table.newest); });
        bar.append(ask, yes, no);
        yes.focus();
      } else {
        const b = el("button", "ghost", this.leaveWord());
        b.type = "button";
        b.id = "room-leave-table";
        b.addEventListener("click", () => this.leave());
        bar.append(b);
      }
    } else if (room && room.phase === "over" && this.screen === "table") {
      const b = el("button", "ghost", W.alone);
      b.type = "button";
      b.addEventListener("click", () => { forget(this.code); goHome(); });
      bar.append(b);
    }
    this.barVisibility();
  }

  // "Rời phòng", or a public table's "Rời bàn" (the word of its question)
  leaveWord() { return this.pub ? this.pub.leaveWord : W.leave; }

  // The bar takes room in the top bar only when it shows something.
  barVisibility() {
    const bar = $("#room-bar");
    const empty = !bar.querySelector(":scope > :not([hidden])");
    if (bar.hidden !== empty) {
      bar.hidden = empty;
      window.dispatchEvent(new Event("resize"));
    }
  }

  // ------------------------------------------------------------ table
  tableScreen(room) {
    if (this.screen !== "table") {
      this.screen = "table";
      $("#room-screen").replaceChildren();
      this.showScreen(false);
      $("#room-panel").hidden = false;
    }
    document.body.dataset.roomPhase = room.phase;
    this.renderSeatList($("#room-players"), room, false);
    this.renderBar(room);
  }

  onTable() { return this.screen === "table"; }
  // the end of the match on the message line: the room or table is closed now
  matchOver() { return this.words().closed; }
  pace() { return PACE; }

  // Once a second: the time left to the waited-for player, on the message line.
  tick() {
    if (this.deadlineAt !== null && !this.table.presenting) this.table.repaint();
  }

  secondsLeft() {
    if (this.deadlineAt === null) return null;
    return Math.max(0, Math.ceil((this.deadlineAt - performance.now()) / 1000));
  }

  // ------------------------------------------------------------ the message line's words
  // Whom the table waits for, and the time left to them.
  waiting(s) {
    return (this.room().waiting_for || []).filter((seat) => seat !== s.seats[0]).map((seat) => names(s)[seat] || seat);
  }

  clock(text) {
    const left = this.secondsLeft();
    return left !== null && !this.table.presenting ? `${text} · ${W.secondsLeft(left)}` : text;
  }

  choosing(s, text) { return { text: this.clock(text), kind: "turn" }; }

  passesAwaited(s) {
    const waiting = this.waiting(s);
    return { text: waiting.length ? this.clock(W.waitPass(waiting.join(", "))) : W.waitAll };
  }

  handOver(s) {
    if (!s.hand.points) return { text: W.waitMoon(this.waiting(s).join(", ") || W.theShooter) };
    return { text: W.handDone };
  }

  yourTurn() { return { text: this.clock(T.yourTurn), kind: "turn" }; }

  othersTurn(s, turn) {
    const seat = this.room().seats.find((x) => x.seat === turn);
    if (seat && seat.kind === "human") return { text: this.clock(W.waitFor(names(s)[turn])) };
    return { text: T.isPlaying(names(s)[turn]) };
  }

  // After each paint of the table (tablepage.js): on the plates, a human away, a
  // decision made for them, a pass made; on the table, "(tự động)" under a card played
  // for an absent player.
  paint(s) {
    const room = this.room();
    const h = s.hand;
    const waiting = new Set(room.waiting_for || []);
    for (const seat of room.seats) {
      const root = $(`#table .seat[data-seat="${seat.seat}"]`);
      if (!root) continue;
      let tag = $(".room-status", root);
      if (!tag) {
        tag = el("span", "room-status");
        $(".plate", root).after(tag);
      }
      let text = "";
      if (seat.kind === "human" && seat.seat !== s.seats[0]) {
        if (!seat.connected) text = W.disconnected;
        else if (h.phase === "pass") text = waiting.has(seat.seat) ? W.choosing : W.passed;
      }
      if (seat.kind === "computer" && seat.left) text = W.insteadOf(seat.left);
      if (autoNow(seat)) text = text ? `${text} ${W.auto}` : W.auto;
      tag.textContent = text;
      tag.hidden = !text;
      // the host, on the table as in the lobby
      let host = $(".room-host", root);
      if (!host) {
        host = el("span", "room-host", W.creator);
        $(".plate", root).after(host);
      }
      host.textContent = W.creator;
      host.hidden = seat.seat !== room.creator;
      root.classList.toggle("away", seat.kind === "human" && !seat.connected);
      root.dataset.kind = seat.kind;
    }
    for (const c of document.querySelectorAll("#trick .table-card[data-card]")) {
      const auto = this.isAuto({ seat: c.dataset.seat, card: c.dataset.card });
      let tag = $(".auto-tag", c);
      if (auto && !tag) {
        tag = el("span", "auto-tag", W.auto);
        c.append(tag);
        c.setAttribute("aria-label", `${T.played(names(s)[c.dataset.seat], c.dataset.card)} ${W.auto}`);
      } else if (!auto && tag) {
        tag.remove();
      }
    }
    if (this.pub) this.pub.decorate(room, s);
  }
}
