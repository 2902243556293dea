// The service worker (issue 39, item 16), served at /sw.js by web/pwa.py, which puts
// this release's VERSION and FILES (the page "/" and its versioned static files) above
// this text: a new release is a new worker with a new cache, so players get it on
// their next visit and the old cache is dropped.
// The versioned static files come from the cache (they never change under one
// version). A page ("/", a room's or a transfer's link) goes to the network first and
// is the cached page only without a connection. The API never passes through here:
// every action reaches the server or fails, never a stored answer.
const CACHE = `hearts-${VERSION}`;
const STATIC = `/static/v/${VERSION}/`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("hearts-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function page(request) {
  try {
    return await fetch(request);
  } catch (e) {
    const cached = await caches.match("/", { cacheName: CACHE });
    if (cached) return cached;
    throw e;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith(STATIC)) event.respondWith(fromCache(request));
});
