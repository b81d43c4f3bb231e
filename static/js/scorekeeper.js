/* Scorekeeper: progressive enhancement of a form that works without JavaScript.
   Enter in the table field moves to the result field; submitting sends the form with fetch,
   swaps in the fresh messages and "last entries" from the page the server answers with, clears
   the form and puts the focus back in the table field: no reload, no jump. Any failure falls
   back to an ordinary submit. No build step, no dependencies. */
(function () {
  "use strict";
  var form = document.getElementById("scorekeeper-form");
  if (!form || !window.fetch || !window.FormData || !window.DOMParser) {
    return;
  }
  var table = document.getElementById("sk-table");
  var result = document.getElementById("sk-result");
  var live = document.getElementById("sk-live");
  var busy = false;

  table.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && table.value.trim() && !result.value.trim()) {
      event.preventDefault();
      result.focus();
    }
  });

  function swap(fresh, selector, anchor) {
    var mine = document.querySelector(selector);
    var theirs = fresh.querySelector(selector);
    if (mine && theirs) {
      mine.replaceWith(theirs);
    } else if (mine) {
      mine.remove();
    } else if (theirs && anchor) {
      anchor.parentNode.insertBefore(theirs, anchor);
    }
    return theirs;
  }

  form.addEventListener("submit", function (event) {
    if (busy) {
      event.preventDefault();
      return;
    }
    event.preventDefault();
    busy = true;
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch" }
    })
      .then(function (response) {
        if (!response.ok) {
          throw new Error(String(response.status));
        }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        // A new message goes just under the form, where the scorekeeper is looking.
        var messages = swap(fresh, "main .messages", live || document.querySelector(".staff-scorekeeper"));
        swap(fresh, "#recent", null);
        var failed = messages && messages.querySelector(".message-error");
        if (live) {
          live.textContent = messages ? messages.textContent.trim() : "";
        }
        if (!failed) {
          form.reset();
        }
        busy = false;
        table.focus();
        table.select();
      })
      .catch(function () {
        busy = false;
        form.submit();
      });
  });
})();
