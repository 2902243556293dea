// The rule facts as the server states them (GET /api/rules, docs/api.md): the
// default table, the targets one may choose, each table size's deck (which card broke
// hearts, the State says: hand.broken_at). Asked for once as the page starts, beside
// its first State; the page paints nothing before `rulesReady` has resolved.
import { sleep } from "./dom.js";

let facts = null;
// kept for a page opened without a connection, which draws the match it kept (main.js)
const KEY = "hearts-rules";

async function load(ready) {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch("/api/rules", { headers: { Accept: "application/json" } });
      if (res.ok) {
        facts = await res.json();
        try { localStorage.setItem(KEY, JSON.stringify(facts)); } catch { /* private mode */ }
        ready();
        return;
      }
    } catch { /* the network: again, a little later */ }
    if (!facts) {
      try { facts = JSON.parse(localStorage.getItem(KEY)); } catch { /* none kept */ }
      if (facts) ready();
    }
    await sleep(Math.min(5000, 500 * 2 ** attempt));
  }
}

export const rulesReady = new Promise(load);

export function defaultRules() { return facts.defaults; }

export function isDefaultRules(r) {
  const d = facts.defaults;
  return !r || Object.keys(d).every((k) => r[k] === d[k]);
}

// {min, max}: the targets a match may be played to.
export function targetRange() { return facts.target; }

// The cards taken out of the deck at a table of `players`, and the cards each is dealt.
export function removedCards(players) { return (facts.tables[String(players)] || { removed: [] }).removed; }
export function handSize(players) { return facts.tables[String(players)].hand_size; }
// The card that leads the first trick at a table of `players`.
export function leadCard(players) { return facts.tables[String(players)].lead; }
