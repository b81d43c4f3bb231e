/* Small page behaviours kept out of the markup (the Content-Security-Policy runs only our own
   script files): buttons marked data-print print the page; an element marked
   data-focus-on-load takes the focus (a heading shown after a form answered on the same page,
   so a screen reader starts there). No build step, no dependencies. */
(function () {
  "use strict";
  var buttons = document.querySelectorAll("[data-print]");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener("click", function () { window.print(); });
  }
  var target = document.querySelector("[data-focus-on-load]");
  if (target) {
    target.focus();
  }
})();
