/* Projector: keeps the heading, the timer and the pairings up to date in place, without a page
   refresh (a timed refresh loses the reader's place and is an accessibility failure). Every
   data-poll-seconds it asks data-live-url?since=STAMP: 204 while nothing changed (cheap), or
   the fresh parts (templates/matches/_projector_live.html), each swapped for the page's element
   of the same id; the polite status line then says what changed. A failed poll shows a notice
   and tries again later. Without JavaScript the page's Refresh link reloads it.
   No build step, no dependencies. */
(function () {
  "use strict";
  var main = document.querySelector("main[data-live-url]");
  if (!main || !window.fetch || !window.DOMParser) { return; }
  var url = main.getAttribute("data-live-url");
  var every = Math.max(1, parseInt(main.getAttribute("data-poll-seconds"), 10) || 15) * 1000;
  var stale = document.getElementById("projector-stale");
  var updated = document.getElementById("projector-updated");
  var announce = document.getElementById("projector-announce");

  function stamp() {
    var now = document.getElementById("projector-now");
    return now ? now.getAttribute("data-stamp") || "" : "";
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function fresh() {
    var at = new Date();
    if (updated) {
      updated.textContent = pad(at.getHours()) + ":" + pad(at.getMinutes());
      updated.setAttribute("datetime", at.toISOString());
    }
    if (stale) { stale.hidden = true; }
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

  function poll() {
    if (document.hidden) { window.setTimeout(poll, every); return; }
    fetch(url + "?since=" + encodeURIComponent(stamp()), {
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Accept": "text/html" }
    })
      .then(function (response) {
        if (response.status === 204) { return null; }
        if (!response.ok) { throw new Error("projector " + response.status); }
        return response.text();
      })
      .then(function (html) {
        if (html !== null) { swap(html); }
        fresh();
        window.setTimeout(poll, every);
      })
      .catch(function () {
        if (stale) { stale.hidden = false; }
        window.setTimeout(poll, every);
      });
  }

  window.setTimeout(poll, every);
})();
