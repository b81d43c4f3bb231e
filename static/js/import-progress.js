/* Card import progress: re-reads this page every two seconds while the import runs and swaps
   in the fresh status block; reloads once when it ends (to show the rejected rows).
   No build step, no dependencies. Without JavaScript a <noscript> meta refresh does the job. */
(function () {
  "use strict";
  var box = document.getElementById("import-status");
  if (!box || box.getAttribute("data-running") !== "true" || !window.fetch) {
    return;
  }
  function poll() {
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("import-status");
        if (!fresh) {
          return;
        }
        if (fresh.getAttribute("data-running") !== "true") {
          window.location.reload();
          return;
        }
        box.innerHTML = fresh.innerHTML;
        window.setTimeout(poll, 2000);
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 2000);
})();
