/* The polling loop of the pages that keep themselves up to date without a reload (projector.js,
   coverage.js; loaded before them). battledeskPoll({every, request, take, stale, updated}):
   every `every` ms while the page is shown, fetch `request()`'s {url, headers} and hand the
   response to `take` (which may return a promise, and throws for an answer it cannot use);
   after an answer the <time> element `updated` shows the time (HH:MM) and the element `stale`
   is hidden; it is shown while the last poll failed. No build step. */
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }

  window.battledeskPoll = function (options) {
    function later() { window.setTimeout(poll, options.every); }

    function poll() {
      if (document.hidden) { later(); return; }
      var ask = options.request();
      fetch(ask.url, { credentials: "same-origin", cache: "no-store", headers: ask.headers })
        .then(options.take)
        .then(function () {
          var at = new Date();
          if (options.updated) {
            options.updated.textContent = pad(at.getHours()) + ":" + pad(at.getMinutes());
            options.updated.setAttribute("datetime", at.toISOString());
          }
          if (options.stale) { options.stale.hidden = true; }
          later();
        })
        .catch(function () {
          if (options.stale) { options.stale.hidden = false; }
          later();
        });
    }

    later();
  };
}());
