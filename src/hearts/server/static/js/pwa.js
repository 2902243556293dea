// The page as an app (issue 39, item 16): the service worker (/sw.js, web/pwa.py)
// that keeps the page's files for a visit without a connection, the manifest in the
// player's language, and the "Không có kết nối" bar. The bar shows while the browser
// says it is offline or the last call to the server could not reach it (api.js says
// so), and goes by itself when a call gets through again; the page's own retries
// (the State, the computers' turns) carry on meanwhile, and an action is never sent
// again by itself: the version check refuses what the server already has.
import { A, LANG } from "./i18n.js";
import { el } from "./dom.js";

if (LANG === "en") {
  const link = document.querySelector('link[rel="manifest"]');
  if (link) link.href = link.href.replace("manifest.vi.", "manifest.en.");
}

const bar = el("p", "offline-bar", A.offline);
bar.id = "offline";
bar.setAttribute("role", "status");
document.body.prepend(bar);

function connected(yes) {
  document.body.dataset.online = yes ? "true" : "false";
  bar.hidden = yes;
}
connected(navigator.onLine);
addEventListener("offline", () => connected(false));
addEventListener("online", () => connected(true));
addEventListener("hearts:net", (e) => connected(e.detail));

// After the page has loaded: the worker's first fill never competes with it.
function register() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => { /* blocked, private mode: a plain page */ });
  // The English words and rules are not kept ahead (web/pwa.py): asked for through the
  // worker (the words from the browser's cache), it keeps them for a visit without a
  // connection.
  const keepEnglish = () => {
    if (LANG !== "en" || !navigator.serviceWorker.controller) return;
    for (const file of ["./i18n-en.js", "../help.en.html"]) fetch(new URL(file, import.meta.url)).catch(() => {});
  };
  navigator.serviceWorker.addEventListener("controllerchange", keepEnglish);
  keepEnglish();
}
if (document.readyState === "complete") register();
else addEventListener("load", register);
