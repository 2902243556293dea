// What this browser keeps of its rooms, and a room's link: read by ondemand.js to
// know, without loading room.js, whether a room may take the page.
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
// page (ondemand.js), and the solo table's first State is not asked for before (boot.js;
// index.html's inline script makes the same test, on the same keys, before any module is here).
export function roomMayTakePage() {
  return CODE_IN_PATH.test(location.pathname) || !!remembered() || publicFlag();
}
