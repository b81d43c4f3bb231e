/* Adjudication page: the step slider shows the pre-rendered step panels without reloading.
   No build step, no dependencies. Without JavaScript the Previous/Next/Show buttons post the
   form and the server renders the chosen step. */
(function () {
  "use strict";
  var range = document.querySelector("[data-adj-range]");
  if (!range) { return; }
  var panels = document.querySelectorAll(".adj-step-panel");
  var output = document.querySelector("[data-adj-output]");
  var prev = document.querySelector("[data-adj-prev]");
  var next = document.querySelector("[data-adj-next]");
  var max = parseInt(range.max, 10) || 0;
  var byStep = {};
  for (var i = 0; i < panels.length; i++) {
    byStep[panels[i].getAttribute("data-step")] = panels[i];
  }
  if (Object.keys(byStep).length !== max + 1) { return; } /* one step at a time: server */

  function show(n) {
    n = Math.max(0, Math.min(max, n));
    range.value = String(n);
    if (output) { output.textContent = String(n); }
    for (var j = 0; j < panels.length; j++) {
      panels[j].hidden = panels[j].getAttribute("data-step") !== String(n);
    }
    if (prev) { prev.value = String(Math.max(0, n - 1)); }
    if (next) { next.value = String(Math.min(max, n + 1)); }
  }

  range.addEventListener("input", function () { show(parseInt(range.value, 10) || 0); });
  if (prev) {
    prev.addEventListener("click", function (e) { e.preventDefault(); show((parseInt(range.value, 10) || 0) - 1); });
  }
  if (next) {
    next.addEventListener("click", function (e) { e.preventDefault(); show((parseInt(range.value, 10) || 0) + 1); });
  }
})();
