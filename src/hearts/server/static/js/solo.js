// The solo table's transport (tablepage.js): REST through api.js, a State for each
// action, and the computers' turns paced by the page: one POST /api/step per computer
// card, asked for once the card before it has landed (its gap counts the call's time).
import { api } from "./api.js";
import * as fairness from "./fairness.js";
import { T } from "./i18n.js";
import { sleep } from "./dom.js";

// Whether a computer is to move on the table `s` (South is its first seat).
function needsStep(s) {
  if (!s || s.match.over) return false;
  const h = s.hand;
  if (h.phase === "play") return !!h.turn && h.turn !== s.seats[0];
  if (h.phase === "pass") return !!h.passed && h.turn !== s.seats[0];
  return false;
}

export class SoloTransport {
  constructor() {
    this.stuck = false; // the computers' steps failed again and again: "Thử lại" shown
  }

  // South's action ("play", "pass", "moon", "next-hand") → the State after it; a deal
  // carries this browser's seed.
  async act(what, body, newest) {
    if (what === "play") return api.play(body.version, body.card);
    if (what === "pass") return api.pass(body.version, body.cards);
    if (what === "moon") return api.moon(body.version, body.choice);
    if (what !== "next-hand") throw new Error(`no such action: ${what}`);
    const sent = fairness.seedFor(newest);
    const state = await api.nextHand(body.version, sent.seed);
    fairness.dealt(sent, state);
    return state;
  }

  refresh() { return api.state(); }

  // South's action, then the computers' turns; an error leaves the table as the
  // server has it.
  async run(page, call) {
    try {
      if (call) await page.receive(await call(page.version()));
    } catch (e) {
      await this.recover(page, e);
    }
    try {
      await this.computers(page);
    } catch (e) {
      await this.recover(page, e);
    }
  }

  // Never leave the table hanging: if computers still have to move, try again.
  after(page) {
    if (needsStep(page.current())) setTimeout(() => page.act(null), this.stuck ? 5000 : 1200);
  }

  async recover(page, e) {
    if (e.state) { // 409 stale (or any error that carries the state): adopt it
      await page.receive(e.state);
      return;
    }
    if (e.code === "network") {
      page.say(T.netError);
      return;
    }
    page.say(e.message || T.error);
    try { await page.receive(await api.state()); } catch { /* keep what we have */ }
  }

  async computers(page) {
    let failures = 0;
    while (needsStep(page.current())) {
      let next;
      try {
        next = await api.step(page.version());
      } catch (e) {
        if (e.state) { await page.receive(e.state); continue; }
        failures++;
        if (e.code === "not_computer_turn" || e.code === "wrong_phase") {
          try { await page.receive(await api.state()); } catch { /* retry below */ }
          if (failures < 5) continue;
        }
        if (failures >= 6) { this.stuck = true; page.say(T.netError); return; }
        if (e.code === "network" || e.status >= 500) page.say(T.netError);
        await sleep(Math.min(4000, 300 * 2 ** failures));
        try { page.note(await api.state()); } catch { /* try again */ }
        continue;
      }
      failures = 0;
      await page.receive(next);
    }
  }
}
