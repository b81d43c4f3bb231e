/* Battledesk's service worker: the pages players and staff need during a round keep working
   from the last copy when the venue's connection drops. Served at /sw.js (config/offline.py)
   so its scope is the whole site; registered by static/js/offline.js. No build step.

   - Pages (OFFLINE_PAGES, GET navigations only): network first; every 200 HTML answer is kept
     with the time it was fetched and whose account it showed (the page's
     <meta name="battledesk-user">). When the network fails (or is slower than
     NETWORK_TIMEOUT_MS and a copy exists) the copy is shown, marked with
     <meta name="battledesk-offline-copy" content="fetched at, ms">: offline.js then says so,
     how old it is, and reloads when the connection returns.
   - Static files: cache first for whitenoise's hashed names (they never change), network
     first for the rest (development serves unhashed names).
   - Only one account's pages are ever kept: a page of another account (or signed out) drops
     every copy, and so does any POST to the login, logout or sign-up pages.
   - A result reported on "my match" while offline (POST to /matches/<id>/report/) is kept in
     the outbox and sent when the connection returns (offline.js asks, from any open page of
     the site; reporting the same result twice changes nothing on the server). Nothing else that is POSTed is kept,
     and no POST answer is ever cached.
   Keep OFFLINE_PAGES in step with tests/test_offline.py (which reads them from here). */
"use strict";

var PAGES = "battledesk-pages-v1";
var STATIC = "battledesk-static-v1";
var OUTBOX = "battledesk-outbox-v1";
var PUSH = "battledesk-push-v1";  // the CSRF token push.js last handed over (see renewPush)
var OWNER = "/__offline__/owner";  // the account whose pages are kept (an entry in PAGES)
var OUTBOX_PREFIX = "/__offline__/outbox";
var MAX_PAGES = 40;
var MAX_STATIC = 60;
var NETWORK_TIMEOUT_MS = 8000;
var STATIC_PREFIX = "/static/";  // config/settings STATIC_URL

var OFFLINE_PAGES = [
  /^\/events\/(?!new\/|claim\/)[-\w]+\/$/,  // the event page
  /^\/events\/[-\w]+\/rounds\/\d+\/pairings\/$/,  // a round's pairings
  /^\/events\/[-\w]+\/my-match\/$/,  // my match
  /^\/matches\/\d+\/report\/$/,  // my match, from a match slip's QR code
  /^\/events\/[-\w]+\/standings\/$/,  // standings
  /^\/events\/[-\w]+\/projector\/$/  // the projector: round timer and pairings
];
var REPORT = /^\/matches\/\d+\/report\/$/;
var ACCOUNT_CHANGE = /^\/accounts\/(login|logout|signup)\/$/;
var HASHED = /\.[0-9a-f]{12}\.[A-Za-z0-9]+$/;  // ManifestStaticFilesStorage: name.<12 hex>.ext
var USER_META = /<meta name="battledesk-user" content="([^"]*)">/;

var pending = [];  // stores under way: "status" waits for them

function offlinePage(pathname) {
  return OFFLINE_PAGES.some(function (pattern) { return pattern.test(pathname); });
}

function withoutHash(url) {
  var parsed = new URL(url, self.location.href);
  parsed.hash = "";
  return parsed.href;
}

function track(promise) {
  var tracked = promise.catch(function () { /* a failed store only loses a copy */ });
  pending.push(tracked);
  tracked.then(function () { pending.splice(pending.indexOf(tracked), 1); });
  return tracked;
}

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("battledesk-") === 0 && [PAGES, STATIC, OUTBOX, PUSH].indexOf(name) < 0;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// --- pages ----------------------------------------------------------------------------------

function storable(response) {
  return response && response.status === 200 && response.type === "basic" &&
    !response.redirected &&
    (response.headers.get("Content-Type") || "").indexOf("text/html") === 0 &&
    (response.headers.get("Cache-Control") || "").indexOf("no-store") < 0;
}

function forget() {
  return Promise.all([caches.delete(PAGES), caches.delete(OUTBOX), caches.delete(PUSH)]);
}

function owner(cache) {
  return cache.match(OWNER).then(function (found) { return found ? found.text() : null; });
}

function trim(cache, max, keep) {
  return cache.keys().then(function (requests) {
    return Promise.all(requests.map(function (request) {
      return cache.match(request).then(function (response) {
        var at = Number(response && response.headers.get("X-Offline-Fetched-At")) || 0;
        return { request: request, at: at };
      });
    }));
  }).then(function (entries) {
    entries = entries.filter(function (e) { return keep.indexOf(new URL(e.request.url).pathname) < 0; });
    entries.sort(function (x, y) { return y.at - x.at; });
    return Promise.all(entries.slice(max).map(function (e) { return cache.delete(e.request); }));
  });
}

/* Keep a page's HTML with when it was fetched and whose it is; a page of another account
   than the kept ones drops them all first. */
function storePage(url, response) {
  var at = Date.now();
  return response.text().then(function (html) {
    var found = USER_META.exec(html);
    if (!found) {
      return null;  // only pages that say whose they are
    }
    var user = found[1];
    return caches.open(PAGES).then(function (cache) {
      return owner(cache).then(function (current) {
        if (current === user) {
          return cache;
        }
        return caches.delete(PAGES).then(function () {
          return caches.open(PAGES);
        }).then(function (fresh) {
          return fresh.put(OWNER, new Response(user)).then(function () { return fresh; });
        });
      }).then(function (target) {
        var headers = {
          "Content-Type": response.headers.get("Content-Type") || "text/html; charset=utf-8",
          "X-Offline-Fetched-At": String(at),
          "X-Offline-User": user
        };
        return target.put(url, new Response(html, { status: 200, headers: headers }))
          .then(function () { return trim(target, MAX_PAGES, [OWNER]); })
          .then(function () { return at; });
      });
    });
  });
}

/* Whether the outbox holds a report waiting for the match whose report form is in `html`
   (its action is the report's URL). */
function waitingIn(html) {
  return outbox().then(function (list) {
    return list.some(function (entry) {
      var path = new URL(entry.url).pathname;
      return entry.state === "waiting" && html.indexOf('action="' + path + '"') >= 0;
    });
  }, function () { return false; });
}

/* The kept copy of a page, marked as such, or undefined. A copy showing a match whose result
   waits in the outbox is marked <html data-offline-outbox="waiting"> from its first paint, so
   it never says "Not reported" (the page's CSS shows "kept on this device" instead). */
function copyOf(url) {
  return caches.open(PAGES).then(function (cache) {
    return Promise.all([cache.match(url), owner(cache)]);
  }).then(function (found) {
    var response = found[0];
    if (!response || response.headers.get("X-Offline-User") !== found[1]) {
      return undefined;
    }
    var at = response.headers.get("X-Offline-Fetched-At") || "0";
    return response.text().then(function (html) {
      return waitingIn(html).then(function (waiting) { return { html: html, waiting: waiting }; });
    }).then(function (read) {
      var html = read.html;
      if (read.waiting) {
        html = html.replace(/<html\b/i, '<html data-offline-outbox="waiting"');
      }
      var marked = html.replace(/<head>/i, function (head) {
        return head + '<meta name="battledesk-offline-copy" content="' + Number(at) + '">';
      });
      return new Response(marked, {
        status: 200,
        headers: { "Content-Type": response.headers.get("Content-Type") || "text/html" }
      });
    });
  });
}

function networkFirstPage(event) {
  var url = withoutHash(event.request.url);
  var stored;
  var done = new Promise(function (resolve) { stored = resolve; });
  event.waitUntil(track(done));
  var network = fetch(event.request).then(function (response) {
    if (storable(response)) {
      storePage(url, response.clone()).then(stored, stored);
    } else {
      stored();
    }
    return response;
  }, function (error) {
    stored();
    throw error;
  });
  var fallback = function () {
    return copyOf(url).then(function (copy) { return copy || network; });
  };
  var slow = new Promise(function (resolve) {
    setTimeout(function () {
      // Still waiting: the copy if there is one, else keep waiting for the network.
      caches.open(PAGES).then(function (cache) { return cache.match(url); }).then(function (has) {
        if (has) {
          resolve(fallback());
        }
      });
    }, NETWORK_TIMEOUT_MS);
  });
  return Promise.race([network.catch(fallback), slow]);
}

// --- static files ---------------------------------------------------------------------------

function unhashed(url) {
  return new URL(url).pathname.replace(/\.[0-9a-f]{12}(\.[A-Za-z0-9]+)$/, "$1");
}

function storeStatic(request, response) {
  if (!response || !response.ok || response.type !== "basic") {
    return Promise.resolve();
  }
  var copy = response.clone();
  var headers = new Headers(copy.headers);
  headers.set("X-Offline-Fetched-At", String(Date.now()));
  return copy.blob().then(function (body) {
    return caches.open(STATIC).then(function (cache) {
      var name = unhashed(request.url);
      return cache.keys().then(function (requests) {
        // An older hashed version of the same file is never asked for again.
        return Promise.all(requests.filter(function (old) {
          return old.url !== request.url && unhashed(old.url) === name;
        }).map(function (old) { return cache.delete(old); }));
      }).then(function () {
        return cache.put(request.url, new Response(body, {
          status: copy.status, statusText: copy.statusText, headers: headers
        }));
      }).then(function () { return trim(cache, MAX_STATIC, []); });
    });
  });
}

function cacheFirst(event) {
  return caches.match(event.request.url, { cacheName: STATIC }).then(function (found) {
    if (found) {
      return found;
    }
    return fetch(event.request).then(function (response) {
      event.waitUntil(track(storeStatic(event.request, response)));
      return response;
    });
  });
}

function networkFirstStatic(event) {
  return fetch(event.request).then(function (response) {
    event.waitUntil(track(storeStatic(event.request, response)));
    return response;
  }, function (error) {
    return caches.match(event.request.url, { cacheName: STATIC }).then(function (found) {
      if (found) {
        return found;
      }
      throw error;
    });
  });
}

// --- the outbox: results reported while offline ---------------------------------------------

function nextOf(body, fallback) {
  var next = new URLSearchParams(body).get("next") || "";
  return next.charAt(0) === "/" && next.charAt(1) !== "/" ? next : fallback;
}

function keep(request, body) {
  var url = withoutHash(request.url);
  var entry = {
    url: url,
    body: body,
    contentType: request.headers.get("Content-Type") || "application/x-www-form-urlencoded",
    queuedAt: Date.now(),
    state: "waiting"
  };
  return caches.open(OUTBOX).then(function (cache) {
    // One entry per match: a second report made offline replaces the first.
    return cache.put(OUTBOX_PREFIX + new URL(url).pathname, new Response(JSON.stringify(entry)));
  });
}

function sendOrKeep(event) {
  var request = event.request;
  var body = request.clone().text();
  var path = new URL(request.url).pathname;
  return fetch(request).catch(function () {
    return body.then(function (text) {
      return keep(request, text).then(function () {
        return Response.redirect(new URL(nextOf(text, path), self.location.href).href, 303);
      });
    });
  });
}

function entries() {
  return caches.open(OUTBOX).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (request) {
        return cache.match(request).then(function (response) { return response.json(); })
          .then(function (entry) { return { key: request, entry: entry }; });
      }));
    }).then(function (found) { return { cache: cache, found: found }; });
  });
}

var flushing = null;

/* Send every waiting report; a redirect (the page's answer to any POST) or a 2xx is sent,
   the server's message then shows on the next page; another answer is kept as refused so
   the page can say it was not sent; a network failure keeps it waiting. */
function flush() {
  if (flushing) {
    return flushing;
  }
  flushing = entries().then(function (all) {
    return Promise.all(all.found.map(function (item) {
      var entry = item.entry;
      if (entry.state !== "waiting") {
        return { entry: entry, outcome: entry.state };
      }
      return fetch(entry.url, {
        method: "POST",
        body: entry.body,
        headers: { "Content-Type": entry.contentType },
        credentials: "same-origin",
        redirect: "manual"
      }).then(function (response) {
        if (response.type === "opaqueredirect" || response.ok) {
          return all.cache.delete(item.key).then(function () {
            return { entry: entry, outcome: "sent" };
          });
        }
        entry.state = "refused";
        entry.status = response.status;
        return all.cache.put(item.key, new Response(JSON.stringify(entry))).then(function () {
          return { entry: entry, outcome: "refused" };
        });
      }, function () {
        return { entry: entry, outcome: "waiting" };
      });
    }));
  });
  flushing.then(function () { flushing = null; }, function () { flushing = null; });
  return flushing;
}

// --- requests and messages ------------------------------------------------------------------

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.method === "POST") {
    if (ACCOUNT_CHANGE.test(url.pathname)) {
      event.waitUntil(forget());
    } else if (REPORT.test(url.pathname) && request.mode === "navigate") {
      event.respondWith(sendOrKeep(event));
    }
    return;  // every other POST goes to the network as if there were no service worker
  }
  if (request.method !== "GET") {
    return;
  }
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(HASHED.test(url.pathname) ? cacheFirst(event) : networkFirstStatic(event));
  } else if (request.mode === "navigate" && offlinePage(url.pathname)) {
    event.respondWith(networkFirstPage(event));
  }
});

/* A page that loaded before this worker controlled it asks for its copy and its files. */
function storeLoaded(data) {
  var url = withoutHash(data.url);
  var page = offlinePage(new URL(url).pathname)
    ? fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return storable(response) ? storePage(url, response) : null;
    })
    : Promise.resolve(null);
  var files = (data.assets || []).filter(function (asset) {
    var parsed = new URL(asset, self.location.href);
    return parsed.origin === self.location.origin && parsed.pathname.indexOf(STATIC_PREFIX) === 0;
  }).map(function (asset) {
    var request = new Request(new URL(asset, self.location.href).href);
    return caches.match(request.url, { cacheName: STATIC }).then(function (found) {
      return found || fetch(request).then(function (response) {
        return storeStatic(request, response);
      });
    });
  });
  return track(Promise.all([page].concat(files)));
}

function fetchedAt(url) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(withoutHash(url));
  }).then(function (found) {
    return found ? Number(found.headers.get("X-Offline-Fetched-At")) : null;
  });
}

function outbox() {
  return entries().then(function (all) {
    return all.found.map(function (item) { return item.entry; });
  });
}

function dismissRefused() {
  return entries().then(function (all) {
    return Promise.all(all.found.filter(function (item) {
      return item.entry.state === "refused";
    }).map(function (item) { return all.cache.delete(item.key); }));
  });
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  var port = event.ports && event.ports[0];
  var answer;
  if (data.type === "store") {
    answer = storeLoaded(data).then(function () { return fetchedAt(data.url); })
      .then(function (at) { return { copy: at }; });
  } else if (data.type === "status") {
    answer = Promise.all(pending.slice()).then(function () { return fetchedAt(data.url); })
      .then(function (at) { return { copy: at }; });
  } else if (data.type === "outbox") {
    answer = outbox().then(function (list) { return { outbox: list }; });
  } else if (data.type === "ping") {
    // Can this worker reach the server? (The page may be online before it is.)
    answer = fetch(data.url, { cache: "no-store", credentials: "same-origin" }).then(
      function (response) { return { ok: response.ok }; },
      function () { return { ok: false }; }
    );
  } else if (data.type === "send") {
    answer = flush().then(function (results) { return { results: results }; });
  } else if (data.type === "dismiss") {
    answer = dismissRefused().then(function () { return {}; });
  } else if (data.type === "forget") {
    answer = forget().then(function () { return {}; });
  } else if (data.type === "push-token" && typeof data.token === "string") {
    answer = keepPushToken(data.token).then(function () { return {}; });
  } else {
    return;
  }
  event.waitUntil(answer.then(function (reply) {
    if (port) {
      port.postMessage(reply);
    }
  }, function (error) {
    if (port) {
      port.postMessage({ error: String(error) });
    }
  }));
});

/* Web Push (notifications/push.py sends; static/js/push.js subscribes): the message is the
   JSON {title, body, url, tag}, already decrypted by the browser. A later message with the same
   tag (the same kind at the same event) replaces the earlier one on the lock screen. A tap
   opens the message's page of this site (focusing a tab already on it). */
function pushMessage(event) {
  if (!event.data) {
    return {};
  }
  try {
    return event.data.json() || {};
  } catch (error) {
    return { body: event.data.text() };
  }
}

self.addEventListener("push", function (event) {
  var data = pushMessage(event);
  var options = {
    body: typeof data.body === "string" ? data.body : "",
    data: { url: typeof data.url === "string" ? data.url : "/" },
    icon: STATIC_PREFIX + "img/favicon.svg"
  };
  if (typeof data.tag === "string" && data.tag) {
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(
    typeof data.title === "string" && data.title ? data.title : "Battledesk", options
  ));
});

function notificationTarget(notification) {
  var wanted = (notification.data && notification.data.url) || "/";
  var target = new URL(wanted, self.location.origin);
  // Only this site's pages: a message cannot send the person elsewhere.
  return target.origin === self.location.origin ? target : new URL("/", self.location.origin);
}

/* A tap: focus a tab already on the message's page, else take a tab of this site there, else
   open a window (focus and openWindow are allowed only while a tap is handled). Returns what
   it did: "focused", "navigated" or "opened" (tests/test_browser_push.py). */
function openFromNotification(notification) {
  var target = notificationTarget(notification);
  return self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then(function (windows) {
      var same = windows.filter(function (client) { return client.url === target.href; });
      if (same.length && "focus" in same[0]) {
        return same[0].focus().then(function () { return "focused"; });
      }
      var other = windows.filter(function (client) {
        return new URL(client.url).origin === target.origin && "navigate" in client;
      });
      if (other.length) {
        return other[0].navigate(target.href).then(function (client) {
          return client
            ? client.focus().then(function () { return "navigated"; })
            : self.clients.openWindow(target.href).then(function () { return "opened"; });
        });
      }
      return self.clients.openWindow(target.href).then(function () { return "opened"; });
    });
}

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(openFromNotification(event.notification));
});

/* The push service replaced or dropped this browser's subscription (it expired, or the
   browser renewed its keys): subscribe again with the site's VAPID public key (GET /api/push/;
   the old subscription's own key when the site cannot be reached), give the new subscription
   to the server and remove the old one there, as push.js does on a tap. Nothing is asked of
   the person: the permission was granted before. The browser may hand over the new
   subscription itself (event.newSubscription), which is then used as it is.

   The API takes the session cookie and a CSRF token, as the page's own requests do: the
   worker reads the csrftoken cookie (Cookie Store API) or, where workers have no cookie store,
   uses the token push.js handed over on the last page that showed the push control. Signed
   out (403), the server keeps the old subscription until a push to it fails, which removes it.
   Returns {subscribed: endpoint or null, removed: endpoint or null} (the browser test). */
var PUSH_CONFIG = "/api/push/";
var PUSH_SUBSCRIBE = "/api/push/subscriptions/";
var PUSH_UNSUBSCRIBE = "/api/push/subscriptions/unsubscribe/";
var PUSH_TOKEN = "/__push__/csrf";
var CSRF_COOKIE = "csrftoken";  // config/settings CSRF_COOKIE_NAME (Django's default)

function keepPushToken(token) {
  return caches.open(PUSH).then(function (cache) {
    return cache.put(PUSH_TOKEN, new Response(token));
  });
}

function csrfToken() {
  var fromCookie = self.cookieStore
    ? self.cookieStore.get(CSRF_COOKIE).then(function (cookie) { return cookie ? cookie.value : ""; },
      function () { return ""; })
    : Promise.resolve("");
  return fromCookie.then(function (token) {
    if (token) {
      return token;
    }
    return caches.open(PUSH).then(function (cache) { return cache.match(PUSH_TOKEN); })
      .then(function (found) { return found ? found.text() : ""; });
  });
}

function apiPost(path, body, token) {
  return fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
    body: JSON.stringify(body)
  }).then(function (response) {
    if (!response.ok) {
      throw new Error(path + ": HTTP " + response.status);
    }
    return response.json();
  });
}

function renewPush(oldSubscription, newSubscription) {
  var oldEndpoint = oldSubscription ? oldSubscription.endpoint : null;
  var config = fetch(PUSH_CONFIG, { credentials: "same-origin", cache: "no-store" })
    .then(function (response) { return response.ok ? response.json() : null; })
    .catch(function () { return null; });
  return config.then(function (site) {
    if (newSubscription) {
      return newSubscription;
    }
    if (site && !site.enabled) {
      return null;  // the site switched push off: only remove the old one
    }
    // The key as the API gives it: pushManager.subscribe takes a base64url string too.
    var key = site && site.public_key ? site.public_key
      : oldSubscription && oldSubscription.options && oldSubscription.options.applicationServerKey;
    if (!key) {
      return null;
    }
    return self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }).then(function (subscription) {
    return csrfToken().then(function (token) {
      var sent = subscription
        ? apiPost(PUSH_SUBSCRIBE, subscription.toJSON(), token).then(function () { return subscription.endpoint; })
        : Promise.resolve(null);
      return sent.then(function (endpoint) {
        if (!oldEndpoint || oldEndpoint === endpoint) {
          return { subscribed: endpoint, removed: null };
        }
        return apiPost(PUSH_UNSUBSCRIBE, { endpoint: oldEndpoint }, token).then(function () {
          return { subscribed: endpoint, removed: oldEndpoint };
        });
      });
    });
  });
}

self.addEventListener("pushsubscriptionchange", function (event) {
  event.waitUntil(renewPush(event.oldSubscription || null, event.newSubscription || null));
});
