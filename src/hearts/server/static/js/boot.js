// The solo table's first State, asked for as soon as the page can: index.html runs
// this module on its own (async), beside the loading of main.js's modules, so that on a
// slow link the calls to the server (a round trip each) do not wait for the whole
// module graph (bench/page_results.md). main.js takes the State from here.
import { api, hasToken } from "./api.js";
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

// Not for a room's page: room.js decides first, and the solo State only if it does not.
let early = roomMayTakePage() ? null : load();
if (early) early.catch(() => { /* firstState() hands the failure to main.js */ });

// The first State: the one asked for as the page started, else (again) now.
export function firstState() {
  const got = early || load();
  early = null;
  return got;
}
