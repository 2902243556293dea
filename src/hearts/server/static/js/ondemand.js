// What a first visit to the solo table does not load (issue 39: the page's weight):
// the rooms (room.js with its live link, its dialog and sharing) and moving to another
// device (transfer.js) load when they are needed: a room's or a transfer's link, a
// room this browser sits in, or a press on their buttons. The service worker keeps
// them all the same (web/pwa.py), for a visit without a connection.
import { A } from "./i18n.js";
import { $, el } from "./dom.js";

const TRANSFER_IN_PATH = /^\/t\//;

// A room's link, or a room (a public table) this browser sat in (main.js asks only
// then): room.js decides whether it takes the page (true). Otherwise main.js's
// buttons load it when pressed.
export async function enterRoom(opts) {
  return (await import("./room.js")).enterRoom(opts);
}

// "Chuyển sang máy khác" in the Thành tích panel; a transfer's link (the server saying
// this browser's progress has moved: main.js, at once).
const transfer = () => import("./transfer.js");
{
  const row = $("#stats-panel .coach-row");
  if (row) {
    const b = el("button", "ghost", A.transferOpen);
    b.type = "button";
    b.addEventListener("click", async () => (await transfer()).give());
    row.append(b);
  }
  if (TRANSFER_IN_PATH.test(location.pathname)) transfer();
}
