/* Bad wifi at the venue: registers the service worker (static/js/sw.js, served at /sw.js) and
   shows what it did. Included from templates/_offline.html (base.html and the projector).
   - A page shown from the kept copy (the worker marks it with
     <meta name="battledesk-offline-copy" content="fetched at, ms">) says so and how old it is,
     and reloads itself when the connection returns (the browser's "online" event, or /healthz
     answering again: the wifi may be up while the venue's internet is not).
   - A page loaded from the network that loses the connection says it is offline and since
     when it was loaded, and hides that when the connection returns.
   - Results reported on "my match" while offline wait in the worker's outbox: listed here,
     sent when the connection returns, then the page reloads to show the server's answer.
   - Any other form sent while offline is stopped and shown as not sent.
   - Logging out forgets the kept pages and the outbox on this device.
   The texts come translated from the notice element's data attributes. No build step. */
(function () {
  "use strict";
  var box = document.getElementById("offline-notices");
  if (!box) {
    return;
  }
  var lang = document.documentElement.lang || undefined;
  var copyMeta = document.querySelector('meta[name="battledesk-offline-copy"]');
  var copyAt = copyMeta ? Number(copyMeta.getAttribute("content")) : null;
  var worker = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  // Whether this page came through the worker (else it has no copy yet).
  var controlledAtLoad = !!(worker && worker.controller);
  var PROBE_MS = 15000;
  var notes = {};

  function text(name, values) {
    var template = box.getAttribute("data-" + name) || "";
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return values && key in values ? String(values[key]) : all;
    });
  }

  // A result without drawn games is told without them (most results; some games have none).
  function resultText(name, values) {
    var plain = name + "-no-draw";
    return values.drawn === "0" && box.hasAttribute("data-" + plain)
      ? text(plain, values)
      : text(name, values);
  }

  function note(key, message, kind) {
    var p = notes[key];
    if (message === null) {
      if (p) {
        p.parentNode.removeChild(p);
        delete notes[key];
      }
    } else {
      if (!p) {
        p = document.createElement("p");
        notes[key] = p;
        box.appendChild(p);
      }
      p.className = "message message-" + (kind || "warning") + " offline-" + key;
      if (p.textContent !== message) {
        p.textContent = message;
      }
    }
    box.hidden = !box.firstElementChild;
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function clockOf(at) {
    var then = new Date(at);
    var time = pad(then.getHours()) + ":" + pad(then.getMinutes());
    if (then.toDateString() !== new Date().toDateString()) {
      time = then.toLocaleDateString(lang) + " " + time;
    }
    return time;
  }

  function ago(at) {
    var seconds = Math.max(0, Math.round((Date.now() - at) / 1000));
    var steps = [[60, "second", 1], [3600, "minute", 60], [86400, "hour", 3600],
      [Infinity, "day", 86400]];
    for (var i = 0; i < steps.length; i++) {
      if (seconds < steps[i][0]) {
        var value = Math.floor(seconds / steps[i][2]);
        if (window.Intl && Intl.RelativeTimeFormat) {
          return new Intl.RelativeTimeFormat(lang, { numeric: "always" }).format(-value, steps[i][1]);
        }
        return "-" + value + " " + steps[i][1];
      }
    }
    return "";
  }

  // --- the offline notice ------------------------------------------------------------------

  var loadedAt = window.performance && performance.timeOrigin
    ? Math.round(performance.timeOrigin) : Date.now();

  function showAge() {
    var at = copyAt !== null ? copyAt : loadedAt;
    if (copyAt !== null || navigator.onLine === false) {
      note("copy", text("copy", { time: clockOf(at), ago: ago(at) }));
    } else {
      note("copy", null);
    }
  }

  var reloading = false;
  var checking = false;

  function back() {
    // The connection is back (as far as the worker can tell): send what waits, then show
    // the live page.
    if (reloading) {
      return;
    }
    send().then(function (sent) {
      if ((copyAt !== null || sent) && !reloading) {
        reloading = true;
        window.location.reload();
      } else {
        showAge();
      }
    });
  }

  function check(tries) {
    // Ask the worker to reach /healthz (the wifi may be up while the venue's internet is
    // not); on a failure, try again a second later, a few times.
    if (checking || reloading) {
      return;
    }
    checking = true;
    ask({ type: "ping", url: box.getAttribute("data-probe") }).then(function (reply) {
      checking = false;
      if (reply.ok) {
        back();
      } else if (tries > 1) {
        window.setTimeout(function () { check(tries - 1); }, 1000);
      }
    });
  }

  if (copyAt !== null) {
    // The messages in a kept copy were said once, when it was fetched ("Result sent."...).
    var said = document.querySelectorAll(".messages");
    for (var m = 0; m < said.length; m++) {
      if (said[m] !== box) {
        said[m].hidden = true;
      }
    }
  }
  showAge();
  window.setInterval(showAge, 30000);
  window.addEventListener("offline", showAge);
  window.addEventListener("online", function () {
    if (copyAt === null) {
      showAge();
    }
    check(10);
  });
  if (copyAt !== null) {
    window.setInterval(function () { check(1); }, PROBE_MS);
  }

  // --- talking to the worker ---------------------------------------------------------------

  var ready = worker ? worker.register(box.getAttribute("data-sw"), {
    scope: box.getAttribute("data-scope") || "/",
    updateViaCache: "none"
  }).then(function () { return worker.ready; }) : null;
  if (ready) {
    ready.catch(function () { /* no worker (private mode, http): the pages work without */ });
  }

  function ask(message) {
    if (!ready) {
      return Promise.resolve({});
    }
    return ready.then(function (registration) {
      var target = worker.controller || registration.active;
      if (!target) {
        return {};
      }
      return new Promise(function (resolve) {
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) { resolve(event.data || {}); };
        target.postMessage(message, [channel.port2]);
        window.setTimeout(function () { resolve({}); }, 30000);  // a worker that never answers
      });
    }).catch(function () { return {}; });
  }

  function send() {
    return ask({ type: "send" }).then(function (reply) {
      var sent = (reply.results || []).some(function (r) { return r.outcome === "sent"; });
      return listOutbox().then(function () { return sent; });
    });
  }

  // A best-of-1 report is one tap (templates/matches/_report_form.html): the games it means.
  var ONE_TAP = { win: ["1", "0", "0"], loss: ["0", "1", "0"], draw: ["0", "0", "1"] };

  function describe(entry) {
    var form = new URLSearchParams(entry.body || "");
    var tapped = ONE_TAP[form.get("outcome")];
    return {
      won: tapped ? tapped[0] : form.get("won") || "0",
      lost: tapped ? tapped[1] : form.get("lost") || "0",
      drawn: tapped ? tapped[2] : form.get("drawn") || "0",
      time: clockOf(entry.queuedAt)
    };
  }

  function listOutbox() {
    return ask({ type: "outbox" }).then(function (reply) {
      var waiting = [];
      var refused = [];
      (reply.outbox || []).forEach(function (entry) {
        (entry.state === "refused" ? refused : waiting).push(entry);
      });
      note("kept", waiting.length ? waiting.map(function (entry) {
        return resultText("kept", describe(entry));
      }).join(" ") : null);
      note("refused", refused.length ? refused.map(function (entry) {
        return resultText("refused", describe(entry));
      }).join(" ") : null, "error");
      if (refused.length && copyAt === null) {
        ask({ type: "dismiss" });  // said on a live page: the player reports again from here
      }
    });
  }

  function store() {
    // Loaded before the worker ran: have it keep this page and its files now.
    var assets = [];
    var found = document.querySelectorAll("link[rel~=stylesheet][href], link[rel~=icon][href], script[src]");
    for (var i = 0; i < found.length; i++) {
      assets.push(found[i].href || found[i].src);
    }
    return ask({ type: "store", url: window.location.href, assets: assets });
  }

  if (ready) {
    ready.then(function () {
      if (!controlledAtLoad) {
        return store();
      }
      return ask({ type: "status", url: window.location.href }).then(function (reply) {
        return reply.copy || copyAt !== null || navigator.onLine === false ? reply : store();
      });
    }).then(function (reply) {
      if (reply && reply.copy) {
        document.documentElement.setAttribute("data-offline-kept", String(reply.copy));
      }
      if (navigator.onLine === false) {
        return listOutbox();
      }
      return send().then(function (sent) {
        if (sent && !reloading) {
          reloading = true;
          window.location.reload();  // show the server's answer to what was just sent
        }
      });
    }).catch(function () {});
  }

  // --- forms -------------------------------------------------------------------------------

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || (form.getAttribute("method") || "get").toLowerCase() !== "post") {
      return;
    }
    if (form.hasAttribute("data-offline-forget")) {
      // Logging out: nothing of this account stays on the device.
      ask({ type: "forget" });
      if (window.caches) {
        caches.keys().then(function (names) {
          names.forEach(function (name) {
            if (/^battledesk-(pages|outbox)-/.test(name)) {
              caches.delete(name);
            }
          });
        });
      }
    }
    if (navigator.onLine !== false) {
      return;
    }
    if (form.classList.contains("report-form") && worker && worker.controller) {
      return;  // the worker keeps it and sends it when the connection returns
    }
    event.preventDefault();
    note("not-sent", text("not-sent"), "error");
  });
})();
