/* The organiser dashboard's live round panel (#round-panel): progressive enhancement of a
   panel that works without JavaScript (its forms post and come back; a reload updates it).

   Polling: every data-poll-seconds (10 by default) the panel alone is fetched from
   data-poll-url with the last ETag in If-None-Match; an unchanged panel is a 304 with no body
   (the server does not even read it), a changed one is swapped in. Polling never stops: a
   failed fetch shows the "not updated" note and tries again at the next tick; an answer that
   is not the panel (the session ended, a login page, a 403) reloads the page so the server
   can say why. Hidden tabs skip ticks and poll at once when shown again.

   One tap: an "Accept" form posts in the background (X-Requested-With: fetch), the answer is
   said in the polite live region and on the page, and the panel is fetched again at once.

   The time left counts down every second on this device from the round's end time, corrected
   for the difference between the server's clock and this one (the Date of each answer).
   No build step, no dependencies. */
(function () {
  "use strict";
  var root = document.getElementById("round-panel");
  if (!root) {
    return;
  }
  var body = document.getElementById("round-panel-body");
  var live = document.getElementById("round-panel-live");
  var note = root.querySelector(".round-panel-stale");
  var url = root.getAttribute("data-poll-url");
  var every = (parseInt(root.getAttribute("data-poll-seconds"), 10) || 10) * 1000;
  var etag = root.getAttribute("data-etag") || "";
  var serverNow = Date.parse(root.getAttribute("data-server-now") || "");
  var skew = isNaN(serverNow) ? 0 : serverNow - Date.now();
  var timer = null;
  var busy = false;

  if (!window.fetch || !url) {
    window.setTimeout(function () { window.location.reload(); }, Math.max(every, 30000));
    return;
  }

  function say(text) {
    if (live && text) {
      live.textContent = text;
    }
  }

  function stale(on) {
    if (note) {
      note.hidden = !on;
    }
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function clock(seconds) {
    seconds = Math.abs(Math.round(seconds));
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : pad(m) + ":" + pad(s);
  }

  function countdown() {
    var line = body.querySelector(".round-panel-timer");
    var text = line ? line.querySelector(".round-panel-clock") : null;
    if (!line || !text || line.getAttribute("data-state") !== "running") {
      return;
    }
    var end = Date.parse(line.getAttribute("data-ends-at") || "");
    if (isNaN(end)) {
      return;
    }
    var left = (end - (Date.now() + skew)) / 1000;
    var label = line.getAttribute(left >= 0 ? "data-label-left" : "data-label-over") || "%s";
    text.textContent = label.replace("%s", clock(left));
  }

  function count(name) {
    var inner = body.querySelector(".round-panel-body");
    return inner ? parseInt(inner.getAttribute("data-" + name), 10) || 0 : 0;
  }

  function swap(html) {
    var before = { oneSided: count("one-sided"), late: count("late"), calls: count("calls") };
    var active = document.activeElement;
    var key = active && body.contains(active) ? active.getAttribute("data-focus-key") : null;
    body.innerHTML = html;
    if (key) {
      var again = body.querySelector('[data-focus-key="' + key + '"]');
      if (again) {
        again.focus();
      }
    }
    var grew = [];
    if (count("one-sided") > before.oneSided) {
      grew.push(body.querySelector("#panel-one-sided"));
    }
    if (count("late") > before.late) {
      grew.push(body.querySelector("#panel-late"));
    }
    if (count("calls") > before.calls) {
      grew.push(body.querySelector("#panel-calls"));
    }
    var words = grew.filter(Boolean).map(function (h) { return h.textContent; });
    if (words.length) {
      say(words.join(". "));
    }
    countdown();
  }

  function learnSkew(response) {
    var date = Date.parse(response.headers.get("Date") || "");
    if (!isNaN(date)) {
      skew = date - Date.now();
    }
  }

  function schedule(delay) {
    window.clearTimeout(timer);
    timer = window.setTimeout(tick, delay === undefined ? every : delay);
  }

  function tick() {
    if (busy || document.hidden) {
      schedule();
      return;
    }
    busy = true;
    var headers = { "X-Requested-With": "fetch" };
    if (etag) {
      headers["If-None-Match"] = etag;
    }
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (response) {
        learnSkew(response);
        if (response.status === 304) {
          stale(false);
          return null;
        }
        if (response.ok && response.headers.get("X-Round-Panel") === "1") {
          etag = response.headers.get("ETag") || "";
          return response.text().then(function (html) {
            stale(false);
            swap(html);
          });
        }
        if (response.ok || response.status === 403 || response.redirected) {
          window.location.reload();
          return null;
        }
        throw new Error("HTTP " + response.status);
      })
      .catch(function () {
        stale(true);
        say(root.getAttribute("data-failed") || "");
      })
      .then(function () {
        busy = false;
        schedule();
      });
  }

  /* One tap: accept a one-sided report without leaving the page. */
  body.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("round-panel-accept")) {
      return;
    }
    event.preventDefault();
    var button = form.querySelector("button");
    if (button) {
      button.disabled = true;
    }
    fetch(form.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch" },
      body: new FormData(form)
    })
      .then(function (response) {
        return response.json().then(function (answer) {
          say(answer.message || "");
          if (!answer.ok && button) {
            button.disabled = false;
          }
        });
      })
      .catch(function () {
        // Not sent, or no answer: the ordinary form post says what happened.
        form.submit();
      })
      .then(function () {
        schedule(0);
      });
  });

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      schedule(0);
    }
  });
  window.setInterval(countdown, 1000);
  countdown();
  schedule();
})();
