/* Round control while a large round is paired in the background: re-reads the page every two
   seconds and swaps in the fresh status block; reloads once the pairing is done (the block has
   no progress bar any more). No build step, no dependencies. */
(function () {
  "use strict";
  var box = document.getElementById("pairing-status");
  if (!box || !window.fetch) { return; }
  function poll() {
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("pairing-status");
        if (!fresh || !fresh.querySelector("progress")) { window.location.reload(); return; }
        box.innerHTML = fresh.innerHTML;
        window.setTimeout(poll, 2000);
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 2000);
})();
