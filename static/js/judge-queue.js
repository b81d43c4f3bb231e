/* Judge desk: progressive enhancement of pages that work without JavaScript.

   The queue (#queue-list): every 10 seconds (data-poll-seconds) the list alone is fetched
   from the server (data-poll-url, the page with ?partial=1) and swapped in. Polling never
   stops: a failed fetch says so on the page and tries again at the next tick; an answer that
   is not the list (the session ended, a login page) reloads the whole page so the server can
   redirect; without fetch the page reloads every 30 seconds like the <noscript> refresh.
   Focus stays on the same call's button or link across a swap, a polite live region says
   when the number of open calls grows, and the rows this judge holds are highlighted (the
   list is one copy for every judge; the calls they hold are also listed above it).

   The call page: a filter box over the rule sections, and the focus moves to the summary of a
   ruling that was not saved. No build step, no dependencies. */
(function () {
  "use strict";

  /* --- the ruling form: filter the rule sections, focus the error summary --- */
  var filter = document.getElementById("citation-filter");
  var list = document.getElementById("citation-list");
  if (filter && list) {
    filter.parentNode.hidden = false;
    filter.addEventListener("input", function () {
      var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
      var items = list.querySelectorAll("li");
      for (var i = 0; i < items.length; i++) {
        var text = items[i].textContent.toLowerCase();
        var box = items[i].querySelector("input");
        var show = words.every(function (w) { return text.indexOf(w) !== -1; });
        // A ticked section stays visible: what is chosen is never hidden.
        items[i].hidden = !(show || (box && box.checked));
      }
    });
  }
  var summary = document.querySelector("[data-focus-on-load]");
  if (summary) {
    summary.focus();
  }

  /* --- the queue: poll and swap --- */
  var queue = document.getElementById("queue-list");
  if (!queue) {
    return;
  }
  var every = (parseInt(queue.getAttribute("data-poll-seconds"), 10) || 10) * 1000;
  var fallback = (parseInt(queue.getAttribute("data-fallback-seconds"), 10) || 30) * 1000;
  var url = queue.getAttribute("data-poll-url");
  var live = document.getElementById("queue-live");

  if (!window.fetch || !url) {
    window.setTimeout(function () { window.location.reload(); }, fallback);
    return;
  }

  var timer = null;
  var busy = false;

  function openCount(root) {
    var body = root.querySelector("[data-open-count]");
    return body ? parseInt(body.getAttribute("data-open-count"), 10) || 0 : 0;
  }

  function stale(on) {
    var mark = queue.querySelector(".queue-stale");
    if (mark) {
      mark.hidden = !on;
    }
  }

  /* The list is one copy shared by every judge: mark the rows this judge holds. */
  var me = queue.getAttribute("data-me");
  function markMine() {
    if (!me) {
      return;
    }
    var rows = queue.querySelectorAll('tr[data-holder="' + me + '"]');
    for (var i = 0; i < rows.length; i++) {
      rows[i].classList.add("queue-mine");
    }
  }
  markMine();

  function swap(html) {
    var before = openCount(queue);
    var active = document.activeElement;
    var key = active && queue.contains(active) ? active.getAttribute("data-focus-key") : null;
    queue.innerHTML = html;
    markMine();
    if (key) {
      var again = queue.querySelector('[data-focus-key="' + key + '"]');
      if (again) {
        again.focus();
      }
    }
    var after = openCount(queue);
    if (live && after > before) {
      live.textContent = (live.getAttribute("data-announce-new") || "%s").replace("%s", after);
    }
  }

  function schedule(delay) {
    window.clearTimeout(timer);
    timer = window.setTimeout(tick, delay === undefined ? every : delay);
  }

  function tick() {
    if (busy) {
      schedule();
      return;
    }
    if (document.hidden) {
      schedule();
      return;
    }
    busy = true;
    fetch(url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "X-Requested-With": "fetch" }
    })
      .then(function (response) {
        if (response.ok && response.headers.get("X-Judge-Queue") === "1") {
          return response.text().then(swap);
        }
        if (response.ok || response.status === 403 || response.redirected) {
          window.location.reload();
          return null;
        }
        throw new Error("HTTP " + response.status);
      })
      .catch(function () {
        stale(true);
        if (live) {
          live.textContent = queue.getAttribute("data-failed") || "";
        }
      })
      .then(function () {
        busy = false;
        schedule();
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      schedule(0);
    }
  });
  schedule();
})();
