/* Coverage page: keeps its sections (standings, bracket, feature matches, top decklists,
   metagame) up to date in place, without a page refresh. Every data-poll-seconds it asks
   data-live-url with the ETag it has in If-None-Match: 304 while nothing changed (no body,
   nothing rendered on the server), or the fresh sections (templates/metagame/_coverage_live.html),
   swapped for #coverage-live; the polite status line then says so, and "Updated" shows the
   time of the last answer. A failed poll shows a notice and tries again later (the loop is
   static/js/live-poll.js). Without JavaScript the page's Reload link reloads it.
   No build step, no dependencies. */
(function () {
  "use strict";
  var box = document.getElementById("coverage-refresh");
  if (!box || !window.fetch || !window.DOMParser || !window.battledeskPoll) { return; }
  var url = box.getAttribute("data-live-url");
  var etag = box.getAttribute("data-etag") || "";
  var every = Math.max(1, parseInt(box.getAttribute("data-poll-seconds"), 10) || 20) * 1000;
  var stale = document.getElementById("coverage-stale");
  var updated = document.getElementById("coverage-updated");
  var announce = document.getElementById("coverage-announce");

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("coverage-live");
    var current = document.getElementById("coverage-live");
    if (!fresh || !current) { return; }
    current.replaceWith(document.importNode(fresh, true));
    if (announce) { announce.textContent = box.getAttribute("data-msg-updated") || ""; }
  }

  window.battledeskPoll({
    every: every,
    stale: stale,
    updated: updated,
    request: function () {
      var headers = { "Accept": "text/html" };
      if (etag) { headers["If-None-Match"] = etag; }
      return { url: url, headers: headers };
    },
    take: function (response) {
      if (response.status === 304) { return null; }
      if (!response.ok) { throw new Error("coverage " + response.status); }
      etag = response.headers.get("ETag") || "";
      return response.text().then(swap);
    }
  });
})();
