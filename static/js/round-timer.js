/* Round timer: counts down to the round's end time on this device, every second, without
   asking the server; shows overtime counting up, and the time left while paused. It re-reads
   the timer JSON (GET data-timer-url: {state, ends_at, remaining_seconds, length_seconds}) only
   every 30 s, when the page becomes visible again and when the device comes back online;
   failures are ignored (offline it keeps counting from the last known end time). The last
   known timer is kept in localStorage, keyed by the timer URL, so a reload while the server is
   slow still counts down. Without JavaScript the element shows the server-rendered end time.
   Screen readers hear state changes only (running, paused, overtime), never every second.
   No build step, no dependencies. */
(function () {
  "use strict";
  var POLL_MS = 30000;
  var STORE = "battledesk:round-timer:";

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function clock(seconds) {
    seconds = Math.abs(Math.round(seconds));
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : pad(m) + ":" + pad(s);
  }

  var DEFAULT_LABELS = { left: "%s", overtime: "+%s", paused: "%s", "not-started": "%s" };

  function label(el, name, value) {
    var text = el.getAttribute("data-label-" + name) || DEFAULT_LABELS[name] || "%s";
    return text.replace("%s", value);
  }

  function load(key) {
    try {
      var raw = window.localStorage.getItem(key);
      return raw ? JSON.parse(raw) : null;
    } catch (e) {
      return null;
    }
  }

  function save(key, value) {
    try {
      window.localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode or full: the countdown works without it */ }
  }

  function Timer(el) {
    this.el = el;
    this.text = el.querySelector(".round-timer-text") || el;
    this.status = el.querySelector(".round-timer-status");
    this.url = el.getAttribute("data-timer-url") || "";
    this.key = STORE + this.url;
    this.extension = parseInt(el.getAttribute("data-extension") || "0", 10) || 0;
    this.phase = null;
    var rendered = {
      state: el.getAttribute("data-state") || "not_started",
      remaining: parseInt(el.getAttribute("data-remaining") || "0", 10) || 0,
      end: null,
      saved: Date.now()
    };
    var endsAt = Date.parse(el.getAttribute("data-ends-at") || "");
    var serverNow = Date.parse(el.getAttribute("data-now") || "");
    // The server's clock and this device's may differ: count from the server's "now".
    // The server's "now" is when the page was sent: compare it with when the page arrived,
    // not with when this script ran, or a slow load shows that much too much time left.
    var nav = window.performance && performance.getEntriesByType
      ? performance.getEntriesByType("navigation")[0] : null;
    var received = nav && performance.timeOrigin
      ? performance.timeOrigin + nav.responseStart : Date.now();
    // A copy the service worker kept (static/js/sw.js, shown offline) arrived when it was
    // fetched, not now.
    var copy = document.querySelector('meta[name="battledesk-offline-copy"]');
    if (copy && Number(copy.getAttribute("content")) > 0) {
      received = Number(copy.getAttribute("content"));
    }
    this.skew = isNaN(serverNow) ? 0 : serverNow - received;
    if (rendered.state === "running" && !isNaN(endsAt)) {
      rendered.end = endsAt - this.skew;
    }
    var stored = load(this.key);
    // A page shown from a cache can be older than what the last fetch stored (both times are
    // on the server's clock).
    if (stored && !isNaN(serverNow) && stored.serverSaved && stored.serverSaved > serverNow) {
      this.model = stored;
    } else {
      rendered.serverSaved = isNaN(serverNow) ? 0 : serverNow;
      this.model = rendered;
      save(this.key, rendered);
    }
  }

  Timer.prototype.apply = function (data) {
    var now = Date.now();
    var remaining = Math.round(Number(data.remaining_seconds) || 0);
    this.model = {
      state: data.state || "not_started",
      remaining: remaining,
      // remaining_seconds is measured on the server now: no clock skew to correct.
      end: data.state === "running" ? now + remaining * 1000 : null,
      saved: now,
      serverSaved: now + this.skew
    };
    save(this.key, this.model);
    this.render();
  };

  Timer.prototype.render = function () {
    var m = this.model;
    var el = this.el;
    var phase;
    var text;
    if (m.state === "running" && m.end !== null) {
      var left = (m.end - Date.now()) / 1000 + this.extension;
      if (left >= 0) {
        phase = "running";
        text = label(el, "left", clock(Math.ceil(left)));
      } else {
        phase = "overtime";
        text = label(el, "overtime", clock(Math.floor(-left)));
      }
    } else if (m.state === "paused") {
      phase = "paused";
      text = label(el, "paused", clock(m.remaining + this.extension));
    } else {
      phase = "not_started";
      text = label(el, "not-started", clock(m.remaining + this.extension));
    }
    if (this.text.textContent !== text) {
      this.text.textContent = text;
    }
    el.setAttribute("data-phase", phase);
    if (this.phase !== null && phase !== this.phase && this.status) {
      var announce = el.getAttribute("data-announce-" + phase);
      if (announce) {
        this.status.textContent = announce;
      }
    }
    this.phase = phase;
  };

  Timer.prototype.refresh = function () {
    var self = this;
    if (!self.url || !window.fetch) {
      return;
    }
    fetch(self.url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json" }
    })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("timer " + response.status);
        }
        return response.json();
      })
      .then(function (data) { self.apply(data); })
      .catch(function () { /* offline or slow: keep counting from the last known end */ });
  };

  function start() {
    var elements = document.querySelectorAll(".round-timer");
    var timers = [];
    for (var i = 0; i < elements.length; i++) {
      var el = elements[i];
      if (el.getAttribute("data-timer-ready") === "true") {
        continue;
      }
      el.setAttribute("data-timer-ready", "true");
      var timer = new Timer(el);
      timer.render();
      timers.push(timer);
    }
    if (!timers.length) {
      return;
    }
    function each(method) {
      for (var j = 0; j < timers.length; j++) {
        timers[j][method]();
      }
    }
    window.setInterval(function () { each("render"); }, 1000);
    window.setInterval(function () {
      if (!document.hidden) {
        each("refresh");
      }
    }, POLL_MS);
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) {
        each("render");
        each("refresh");
      }
    });
    window.addEventListener("online", function () { each("refresh"); });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) {
        each("refresh");
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  // A page that swaps in fresh content (the projector) asks for its new timers to start.
  document.addEventListener("battledesk:content", start);
})();
