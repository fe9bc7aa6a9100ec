// The service worker: keeps the site readable, searchable and computable with no network.
//
// The build writes two files at the site's root (kensei_ref/build/offline.py):
// - LIST (offline.json), this build's list: its version (a hash of every file it lists), the files
//   of each group ("en", "fr", "ru": a language's pages, search index and assets; "engine": Pyodide
//   and the calculators) with their sizes and SHA-256 prefixes, whether to check those hashes, the
//   downloadable copy, and the words and colour of the fallback page in each language;
// - this file, with one line before this comment: "use strict" and the constants VERSION (the list's
//   version) and LIST_SHA256 (a prefix of the list's own hash). So any change of the list changes
//   this file's bytes, which is what makes the browser install a new service worker.
//
// The install fetches the list, keeps it only if its hash is LIST_SHA256, and stores it in this
// build's cache: from then on the worker reads its list from there, with or without a network.
//
// One cache per build, named by its version. A file enters it only when its bytes match this build's
// hash, so a page of one build is never served beside an asset of another. A new build installs
// into a new cache (reusing every unchanged file of the old one, downloading the rest, and taking
// again every group the old cache held in full) and takes over when the reader accepts it (the
// page's "Reload"), or when the reader opens a page the old build cannot serve. The browser swaps the
// workers only once the old one has no request left to handle, from any tab: meanwhile, the reader's
// reload is served from the new build's cache by the old worker itself (takeTheReload).
//
// Each page belongs to the build that served it, and so do the workers it starts (OWNERS_KEY): once
// a new build has taken over, a page opened before goes on with its own build's cache, and is
// never reloaded by the worker (what the reader typed there stays); a build's cache is deleted once
// no open page belongs to it.

/* global VERSION, LIST_SHA256 */
const LIST = "offline.json";
const PREFIX = "kensei-ref-";
const CACHE = PREFIX + VERSION;
const GROUPS_KEY = "__groups__";
const LIST_KEY = "__list__";
const OWNERS_KEY = "__clients__";
const SCOPE = self.registration.scope;

/**
 * This build's list, with `files`: path (relative to the scope) -> {group, hash, bytes}. Read from
 * this build's cache, else (at install, or after the cache was cleared) from the network.
 */
let build = null;
/** The list once read (the fetch handler must decide at once whether a request is the site's). */
let known = null;
function theBuild() {
  build ??= readBuild().then(
    (list) => (known = list),
    (error) => { build = null; throw error; },
  );
  return build;
}

async function readBuild() {
  const cache = await caches.open(CACHE);
  let stored = await cache.match(LIST_KEY);
  if (!stored) {
    const response = await fetch(new URL(LIST, SCOPE).href, { cache: "no-cache" });
    if (!response.ok) throw new Error(`${LIST}: HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    if (!(await sha256(bytes)).startsWith(LIST_SHA256)) throw new Error(`${LIST}: not the list of build ${VERSION}`);
    stored = new Response(bytes, { headers: { "Content-Type": "application/json" } });
    await cache.put(LIST_KEY, stored.clone());
  }
  return withFiles(await stored.json());
}

/** The list with `files`: path -> {group, bytes, hash}. */
function withFiles(list) {
  list.files = new Map();
  for (const [group, files] of Object.entries(list.groups)) {
    for (const [path, bytes, hash] of files) list.files.set(path, { group, bytes, hash });
  }
  return list;
}

/** The cache key of a request: its path in the scope, without query, "x/index.html" as "x/". */
function pathOf(url) {
  const href = new URL(url).href.split(/[?#]/)[0];
  if (!href.startsWith(SCOPE)) return null;
  const path = decodeURI(href.slice(SCOPE.length));
  return path.endsWith("index.html") && (path === "index.html" || path.endsWith("/index.html"))
    ? path.slice(0, -"index.html".length) : path;
}

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The response for `path` if its bytes are this build's; null when they are not. */
async function verified(build, path, response) {
  const file = build.files.get(path);
  if (!file || !response.ok || response.status !== 200) return null;
  if (!build.verify) return response;
  const body = await response.clone().arrayBuffer();
  return (await sha256(body)).startsWith(file.hash) ? response : null;
}

async function completeGroups(cache) {
  const stored = await cache.match(GROUPS_KEY);
  return stored ? stored.json() : [];
}

async function markComplete(cache, groups) {
  const all = [...new Set([...(await completeGroups(cache)), ...groups])].sort();
  await cache.put(GROUPS_KEY, new Response(JSON.stringify(all), { headers: { "Content-Type": "application/json" } }));
}

/** Older builds' caches, with the hashes their files had, newest first. */
async function olderCaches() {
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  const older = [];
  for (const name of names.reverse()) {
    const cache = await caches.open(name);
    const stored = await cache.match("__files__");
    older.push({ cache, files: stored ? new Map(await stored.json()) : new Map(), groups: await completeGroups(cache) });
  }
  return older;
}

/**
 * Put every file of `groups` into this build's cache: from an older cache when its hash is the same,
 * from the network otherwise. Throws when a file cannot be had with this build's bytes.
 */
async function save(groups, report = () => {}) {
  const build = await theBuild();
  const cache = await caches.open(CACHE);
  await cache.put("__files__", new Response(JSON.stringify([...build.files].map(([p, f]) => [p, f.hash]))));
  const older = await olderCaches();
  const wanted = [...build.files].filter(([, file]) => groups.includes(file.group));
  const total = wanted.reduce((sum, [, file]) => sum + file.bytes, 0);
  let done = 0;
  let next = 0;
  async function one() {
    while (next < wanted.length) {
      const [path, file] = wanted[next++];
      const key = new URL(path, SCOPE).href;
      if (!(await cache.match(key))) {
        let response = null;
        for (const old of older) {
          if (old.files.get(path) === file.hash) {
            response = await old.cache.match(key);
            if (response) break;
          }
        }
        if (!response) {
          response = await verified(build, path, await fetch(key, { cache: "no-cache" }));
          if (!response) throw new Error(`${key}: not the bytes of build ${VERSION}`);  // the home page's path is ""
        }
        await cache.put(key, response);
      }
      done += file.bytes;
      report({ type: "progress", done, total });
    }
  }
  await Promise.all([one(), one(), one(), one()]);
  await markComplete(cache, groups);
}

self.addEventListener("install", (event) => {
  // Whatever an older build held in full is taken again, so an update never loses offline pages.
  event.waitUntil((async () => {
    try {
      const build = await theBuild();
      const older = await olderCaches();
      const held = [...new Set(older.flatMap((old) => old.groups))].filter((group) => group in build.groups);
      await save(held);
    } catch (error) {
      await caches.delete(CACHE);  // this build is dropped whole; the old one stays in charge
      throw error;
    }
  })());
});

// ---- Which build each page belongs to ------------------------------------------------------------
// clientId -> version, kept in each build's cache (OWNERS_KEY: the ids of its pages and workers), so
// that a worker stopped and started again by the browser still knows them. Changed one at a time.

let owners = null;
function theOwners() {
  owners ??= (async () => {
    const map = new Map();
    for (const name of await caches.keys()) {
      if (!name.startsWith(PREFIX)) continue;
      const stored = await caches.match(OWNERS_KEY, { cacheName: name });  // opens no cache deleted meanwhile
      for (const id of stored ? await stored.json() : []) map.set(id, name.slice(PREFIX.length));
    }
    return map;
  })();
  return owners;
}

let changing = Promise.resolve();
/** Runs `change(map)`, which returns the versions whose pages it changed, and keeps those. */
function changeOwners(change) {
  changing = changing.then(async () => {
    const map = await theOwners();
    await keepOwners(map, await change(map));
  }).catch(() => {});
  return changing;
}

/** Writes the pages of each of `versions` into its cache, where that cache is still there: a cache
 * another worker deletes (an install that failed, an older build's) is not made again. */
async function keepOwners(map, versions) {
  for (const version of versions) {
    const name = PREFIX + version;
    if (!(await caches.has(name))) continue;
    const ids = [...map].filter(([, owner]) => owner === version).map(([id]) => id);
    const body = JSON.stringify(ids);
    await (await caches.open(name)).put(OWNERS_KEY, new Response(body, { headers: { "Content-Type": "application/json" } }));
  }
}

/** Ids recorded in the last minute and not seen open since: a page or worker being made is not among
 * the open clients yet. */
const recent = new Map();
const RECENT_MS = 60_000;

/** Records that the clients `ids` (a page, a worker it starts) belong to the build `version`. */
function own(ids, version) {
  return changeOwners((map) => {
    const changed = new Set();
    for (const id of ids) {
      if (!id) continue;
      recent.set(id, Date.now());
      if (map.get(id) === version) continue;
      if (map.has(id)) changed.add(map.get(id));
      map.set(id, version);
      changed.add(version);
    }
    return changed;
  });
}

/** Forgets the clients that are gone, and deletes the caches of older builds no open page uses (a
 * newer build's, installing or waiting, is never this worker's to delete: caches.keys() lists caches
 * in the order they were made). */
function prune() {
  return changeOwners(async (map) => {
    const open = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: "all" })).map((c) => c.id));
    for (const [id, at] of recent) if (open.has(id) || Date.now() - at > RECENT_MS) recent.delete(id);
    const changed = new Set();
    for (const [id, version] of [...map]) {
      if (!open.has(id) && !recent.has(id)) { map.delete(id); changed.add(version); }
    }
    const used = new Set(map.values());
    const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX));
    for (const name of names.slice(0, Math.max(0, names.indexOf(CACHE)))) {
      if (!used.has(name.slice(PREFIX.length))) await caches.delete(name);
    }
    return changed;
  });
}

/** The other build a page (or a worker it started) belongs to, as {version, cache, list}; null for
 * this build's. Usually an older one; a newer one when the reader's "Reload" was given to it
 * (takeTheReload). `gone` when that build's cache is no longer there. */
async function otherBuildOf(clientId) {
  const version = clientId ? (await theOwners()).get(clientId) : undefined;
  if (!version || version === VERSION) return null;
  return buildOf(version);
}

async function buildOf(version) {
  if (!(await caches.has(PREFIX + version))) return { version, gone: true };
  const cache = await caches.open(PREFIX + version);
  const stored = await cache.match(LIST_KEY);
  if (!stored) return { version, gone: true };
  return { version, cache, list: withFiles(await stored.json()) };
}

/** The newest build, when it is newer than this one and installed whole (its install ends by marking
 * the groups it saved: GROUPS_KEY); else null. caches.keys() lists caches in the order they were made. */
async function newerBuild() {
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX));
  const newest = names[names.length - 1];
  if (!newest || newest === CACHE || names.indexOf(CACHE) < 0) return null;
  const cache = await caches.open(newest);
  if (!(await cache.match(GROUPS_KEY))) return null;
  const build = await buildOf(newest.slice(PREFIX.length));
  return build.gone ? null : build;
}

// ---- The reader's reload, from the new build ----------------------------------------------------
// The reader's "Reload" makes the waiting build take over (skipWaiting), but the browser swaps the
// workers only once this one has finished every request it is handling, for any tab: a download in
// another tab on a slow network holds the reader's reload for as long. So the page asks this worker,
// after a few seconds, to serve its next load from the new build whole (its files from the new
// build's cache, or from the network checked against the new build's list), as the new worker would.

/** The address whose next navigation comes from the newer build, until `until` (ms since 1970). */
let reloadInNewer = null;
const RELOAD_MS = 30_000;

async function takeTheReload(client) {
  const newer = await newerBuild();
  if (!newer || !client || !client.url) return { type: "reload-in-newer", done: false };
  reloadInNewer = { url: client.url.split("#")[0], until: Date.now() + RELOAD_MS };
  return { type: "reload-in-newer", done: true };
}

/** The newer build for this navigation, if the reader's reload was given to it (takeTheReload); taken once. */
async function reloadedBuild(request) {
  if (!reloadInNewer || reloadInNewer.until < Date.now() || request.url.split("#")[0] !== reloadInNewer.url) return null;
  reloadInNewer = null;
  return newerBuild();
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // The pages open now keep the builds that served them (recorded then: otherBuildOf); a page
    // served before builds recorded their pages reloads itself (its own offline.js) and needs none.
    await prune();
    await self.clients.claim();
  })());
});

async function status() {
  const build = await theBuild();
  const cache = await caches.open(CACHE);
  const cached = new Set((await cache.keys()).map((request) => pathOf(request.url)));
  const groups = {};
  for (const [path, file] of build.files) {
    const group = (groups[file.group] ??= { files: 0, bytes: 0, cachedFiles: 0, cachedBytes: 0 });
    group.files += 1;
    group.bytes += file.bytes;
    if (cached.has(path)) {
      group.cachedFiles += 1;
      group.cachedBytes += file.bytes;
    }
  }
  return { type: "status", version: VERSION, groups, complete: await completeGroups(cache), archive: build.archive };
}

self.addEventListener("message", (event) => {
  const message = event.data || {};
  const reply = (data) => event.source && event.source.postMessage(data);
  if (message.type === "skip-waiting") {
    self.skipWaiting();
  } else if (message.type === "reload-in-newer") {
    event.waitUntil(takeTheReload(event.source).then(reply));
  } else if (message.type === "status") {
    event.waitUntil(prune().then(status).then(reply));
  } else if (message.type === "save") {
    event.waitUntil(theBuild().then((build) => {
      const groups = (message.groups || []).filter((group) => group in build.groups);
      return save(groups, reply).then(() => groups);
    }).then(
      async (groups) => reply({ ...(await status()), saved: groups }),
      (error) => reply({ type: "failed", message: String(error && error.message || error) }),
    ));
  }
});

/** The page shown instead of `path`: "not saved for offline use", or, when `refused`, "not shown" (its
 * bytes were not this build's), with a link to try it again. */
function fallback(build, path, refused = false) {
  const lang = Object.keys(build.strings).find((code) => path.startsWith(`${code}/`)) || "en";
  const strings = build.strings[lang];
  const words = refused ? { title: strings.refused_title, text: strings.refused_text } : strings;
  const home = new URL(lang === "en" ? "./" : `${lang}/`, SCOPE).href;
  const again = refused ? `<p><a href="${new URL(path, SCOPE).href}">${strings.reload}</a></p>` : "";
  // The site's own look (its colours, its header bar, light or dark as the reader's system is),
  // inline: the stylesheets of a language that was not saved are not in the cache either.
  const html = `<!doctype html><html lang="${lang}"><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="theme-color" content="${build.colour}">
<title>${words.title}</title><style>
:root{color-scheme:light dark;--fg:#1f1f1f;--bg:#fff;--link:${build.colour}}
@media (prefers-color-scheme:dark){:root{--fg:#e6e6e6;--bg:#1e2129;--link:#ff8a80}}
body{margin:0;font:1rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{background:${build.colour};color:#fff;padding:.9rem 1rem;font-weight:700;font-size:1.1rem}
main{max-width:36rem;margin:2rem auto;padding:0 1rem}h1{font-size:1.6rem;font-weight:400;margin:0 0 1rem}
a{color:var(--link);display:inline-block;min-height:44px;line-height:44px}
</style><body><header>Kensei &amp; Ronin</header><main>
<h1>${words.title}</h1><p>${words.text}</p>${again}<p><a href="${home}">${strings.home}</a></p></main></body></html>`;
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/**
 * A file of the list came with other bytes: a new build was published under the reader, or the file
 * was changed on the server. Its bytes are never returned beside this build's: a page gets the "not
 * shown" page, any other file an error. And if a new build is there, it takes over as soon as it is
 * installed (as the reader's "Reload" would make it): a page opened from then on comes whole from
 * the new build, and the pages open already keep theirs (otherBuildOf) and offer to reload
 * (offline.js).
 */
function refuse(build, path, request) {
  handOver();
  if (request.mode === "navigate") return fallback(build, path, true);
  return new Response("", { status: 503, statusText: "Not this build's file" });
}

let handingOver = false;
async function handOver() {
  if (handingOver) return;
  handingOver = true;
  try {
    await self.registration.update();
  } catch {
    // no new worker to be had: the file was changed on the server
  }
  const next = self.registration.installing || self.registration.waiting;
  handingOver = false;
  if (!next) return;
  const ask = () => { if (next.state === "installed") next.postMessage({ type: "skip-waiting" }); };
  next.addEventListener("statechange", ask);
  ask();
}

/** A request of a page that another build served (an older one, or a newer one that the reader's
 * reload was given to): that build's bytes, from its cache or, when the server has them, from the
 * network; else an error (never this build's bytes). */
async function respondOther(other, request, path) {
  if (other.gone) return new Response("", { status: 503, statusText: "Not this page's build" });
  if (!other.list.files.has(path)) return fetch(request);
  const key = new URL(path, SCOPE).href;
  const hit = await other.cache.match(key);
  if (hit) return hit;
  const mine = await verified(other.list, path, await fetch(request));
  if (!mine) return new Response("", { status: 503, statusText: "Not this page's build" });
  await other.cache.put(key, mine.clone());
  return mine;
}

async function respond(event, path) {
  const request = event.request;
  const build = await theBuild().catch(() => null);
  if (!build) return fetch(request);  // no list (its cache cleared, and no network): nothing to serve
  // a navigation makes a new page, this build's unless it is the reader's reload, given to a newer one
  const other = request.mode === "navigate" ? await reloadedBuild(request) : await otherBuildOf(event.clientId);
  // a worker a page starts belongs to the page's build
  const started = ["worker", "sharedworker"].includes(request.destination) ? event.resultingClientId : "";
  if (request.mode === "navigate" || started) own([event.resultingClientId], other ? other.version : VERSION);
  if (other) return respondOther(other, request, path);
  if (!build.files.has(path) && request.mode !== "navigate") return fetch(request);
  const cache = await caches.open(CACHE);
  const key = new URL(path, SCOPE).href;
  const hit = await cache.match(key);
  if (hit) return hit;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    if (request.mode === "navigate") return fallback(build, path);
    throw error;
  }
  if (!build.files.has(path) || response.status !== 200) return response;
  const mine = await verified(build, path, response);
  if (!mine) return refuse(build, path, request);
  await cache.put(key, mine.clone());
  return mine;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const path = pathOf(request.url);
  if (path === null || path === "sw.js" || path === LIST) return;
  // Not the site's: left to the browser (once the list is read; until then respond() passes it on).
  if (known && !known.files.has(path) && request.mode !== "navigate") return;
  event.respondWith(respond(event, path));
  if (request.mode === "navigate") event.waitUntil(prune());
});
