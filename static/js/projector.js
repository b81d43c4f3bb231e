/* Projector: keeps the heading, the timer and the pairings up to date in place, without a page
   refresh (a timed refresh loses the reader's place and is an accessibility failure). Every
   data-poll-seconds it asks data-live-url?since=STAMP: 204 while nothing changed (cheap), or
   the fresh parts (templates/matches/_projector_live.html), each swapped for the page's element
   of the same id; the polite status line then says what changed. A failed poll shows a notice
   and tries again later (the loop is static/js/live-poll.js). Without JavaScript the page's
   Refresh link reloads it.
   No build step, no dependencies. */
(function () {
  "use strict";
  var main = document.querySelector("main[data-live-url]");
  if (!main || !window.fetch || !window.DOMParser || !window.battledeskPoll) { return; }
  var url = main.getAttribute("data-live-url");
  var every = Math.max(1, parseInt(main.getAttribute("data-poll-seconds"), 10) || 15) * 1000;
  var stale = document.getElementById("projector-stale");
  var updated = document.getElementById("projector-updated");
  var announce = document.getElementById("projector-announce");

  function stamp() {
    var now = document.getElementById("projector-now");
    return now ? now.getAttribute("data-stamp") || "" : "";
  }

  function swap(html) {
    var parts = new DOMParser().parseFromString(html, "text/html").body.children;
    for (var i = 0; i < parts.length; i++) {
      var current = parts[i].id && document.getElementById(parts[i].id);
      if (current) { current.replaceWith(document.importNode(parts[i], true)); }
    }
    // A new round's timer: round-timer.js starts every timer not started yet.
    document.dispatchEvent(new CustomEvent("battledesk:content"));
    var now = document.getElementById("projector-now");
    if (announce && now) { announce.textContent = now.getAttribute("data-announce") || ""; }
  }

  window.battledeskPoll({
    every: every,
    stale: stale,
    updated: updated,
    request: function () {
      return { url: url + "?since=" + encodeURIComponent(stamp()), headers: { "Accept": "text/html" } };
    },
    take: function (response) {
      if (response.status === 204) { return null; }
      if (!response.ok) { throw new Error("projector " + response.status); }
      return response.text().then(swap);
    }
  });
})();
