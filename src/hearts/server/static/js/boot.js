// The solo table's first State. index.html's inline script asks for it before any
// file arrives (window.heartsStart: on a slow link each file and each call costs a
// round trip, bench/page_results.md); this module takes it over: the new player's
// token into api.js, the seed sent into the fairness ledger, and whatever the script
// could not finish (a failed call) done again through api.js. main.js takes the State
// from here.
import { adoptFirst, api, hasToken } from "./api.js";
import * as fairness from "./fairness.js";
import { roomMayTakePage } from "./roomstore.js";

// A new player's first match, dealt with this browser's seed after reading the
// server's commitment (docs/fairness.md): the token and the commitment come together.
async function firstMatch() {
  const promised = await api.newPlayer();
  const sent = fairness.seedFor({ fairness: promised });
  const state = await api.newMatch(promised.version, null, sent.seed);
  fairness.dealt(sent, state);
  return state;
}

const load = () => (hasToken() ? api.state() : firstMatch());

// What the inline script got: {token, sent: {seed, promised, version}, state}, each
// only if its call answered.
async function takeOver(started) {
  const got = await started;
  if (got.token && !adoptFirst(got.token)) return load();
  if (!got.sent) return got.state || load();
  fairness.sending(got.sent);
  // the deal's call failed: the same seed again, for the same promised deal
  const state = got.state || (await api.newMatch(got.sent.version, null, got.sent.seed));
  fairness.dealt(got.sent, state);
  return state;
}

// Not for a room's page: room.js decides first, and the solo State only if it does not.
let early = window.heartsStart ? takeOver(window.heartsStart) : roomMayTakePage() ? null : load();
if (early) early.catch(() => { /* firstState() hands the failure to main.js */ });

// The first State: the one asked for as the page started, else (again) now.
export function firstState() {
  const got = early || load();
  early = null;
  return got;
}
