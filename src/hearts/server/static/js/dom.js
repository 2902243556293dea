// Small helpers of every module of the page.
export const $ = (sel, root = document) => root.querySelector(sel);

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const now = () => performance.now();
export const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Test hook (docs/testing.md): the browser tests set window.__heartsTestPace (a
// factor between 0 and 1) before the page's scripts run, to shorten the waits between
// computer cards and the hold of a finished trick. Players never set it: factor 1.
const TEST_PACE = (() => { const f = Number(window.__heartsTestPace); return f > 0 && f < 1 ? f : 1; })();
export const paced = (ms) => ms * TEST_PACE;

// The page's test hook ``data-busy`` on <body> (docs/testing.md): "true" while the page
// acts for the player, and while a module the table asked for on the way (result.js,
// moonchoice.js) has yet to draw its part: a page that says it waits for the player
// shows all of its table.
let acting = false;
const drawing = new Set();
const showBusy = () => { document.body.dataset.busy = acting || drawing.size ? "true" : "false"; };
export function markBusy(busy) {
  acting = busy;
  showBusy();
}
export function drawnLater(promise) {
  drawing.add(promise);
  showBusy();
  const done = () => { drawing.delete(promise); showBusy(); };
  promise.then(done, done);
  return promise;
}

// What this browser keeps of its rooms, and a room's link: read by main.js to know,
// without loading room.js, whether a room may take the page.
const ROOM_KEY = "hearts-room"; // the code of the room this browser sits in
export const CODE_IN_PATH = /^\/r\/([A-Za-z0-9]{4,64})\/?$/;
export const roomLink = (code) => `${location.origin}/r/${code}`;

export function remembered() {
  try { return localStorage.getItem(ROOM_KEY); } catch { return null; }
}
export function remember(code) {
  try { localStorage.setItem(ROOM_KEY, code); } catch { /* private mode */ }
}
export function forget(code) {
  try { if (!code || localStorage.getItem(ROOM_KEY) === code) localStorage.removeItem(ROOM_KEY); } catch { /* private mode */ }
}
// set while this browser seeks or sits at a public table (public.js)
export function publicFlag() {
  try { return !!localStorage.getItem("hearts-public"); } catch { return false; }
}
// A room's link, or a room (a public table) this browser sat in: room.js may take the
// page (ondemand.js), and the solo table's first State is not asked for before (main.js;
// index.html's inline script makes the same test, on the same keys, before any module is here).
export function roomMayTakePage() {
  return CODE_IN_PATH.test(location.pathname) || !!remembered() || publicFlag();
}
