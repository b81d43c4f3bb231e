/* Scorekeeper: progressive enhancement of a form that works without JavaScript.

   Every slip typed is queued at once and the form is cleared for the next one, so typing
   fast never loses a slip. The queue sends one slip at a time to the same URL the form posts
   to, asking for JSON (matches/staff_views.py, SlipOutcome): a saved slip joins the "Your
   last entries" table, with its undo link; a refused one stays on the page with its reason,
   editable, to send again or discard; a slip that would override a player's different
   pending report asks once more (confirm_override). A slip that could not be sent (no
   connection, a server error) stays first in the queue and is tried again. The queue and the
   refused slips are kept in sessionStorage, so a reload loses nothing either.
   No build step, no dependencies. */
(function () {
  "use strict";
  var form = document.getElementById("scorekeeper-form");
  var slips = document.getElementById("sk-slips");
  if (!form || !slips || !window.fetch || !window.FormData || !window.JSON) {
    return;
  }
  var table = document.getElementById("sk-table");
  var result = document.getElementById("sk-result");
  var live = document.getElementById("sk-live");
  var queueList = document.getElementById("sk-queue");
  var queueSection = document.getElementById("sk-queue-section");
  var refusedList = document.getElementById("sk-refused");
  var refusedSection = document.getElementById("sk-refused-section");
  var saved = document.getElementById("sk-saved");
  var token = form.querySelector("input[name=csrfmiddlewaretoken]");
  var storageKey = "battledesk-scorekeeper:" + form.getAttribute("action");
  var headers = Array.prototype.map.call(
    document.querySelectorAll("#recent thead th"),
    function (th) { return th.textContent.trim(); }
  );

  var queue = [];     // slips waiting, the first one being sent: {id, table, result, confirm}
  var refused = [];   // refused slips: {id, table, result, confirm, message, field, link, confirmLabel}
  var nextId = 1;
  var sending = false;
  var retryDelay = 0;
  var retryTimer = null;

  function text(name, values) {
    var s = slips.getAttribute("data-" + name) || "";
    Object.keys(values || {}).forEach(function (key) {
      s = s.split("{" + key + "}").join(String(values[key]));
    });
    return s;
  }

  function announce(message) {
    if (live) {
      live.textContent = message;
    }
  }

  function store() {
    try {
      window.sessionStorage.setItem(storageKey, JSON.stringify({ queue: queue, refused: refused }));
    } catch (e) { /* private mode or full: the page still works, without surviving a reload */ }
  }

  function restore() {
    var kept = null;
    try {
      kept = JSON.parse(window.sessionStorage.getItem(storageKey) || "null");
    } catch (e) { kept = null; }
    if (!kept) {
      return;
    }
    (kept.queue || []).concat(kept.refused || []).forEach(function (slip) {
      nextId = Math.max(nextId, (slip.id || 0) + 1);
    });
    queue = kept.queue || [];
    refused = kept.refused || [];
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") {
        node.textContent = attrs[key];
      } else {
        node.setAttribute(key, attrs[key]);
      }
    });
    (children || []).forEach(function (child) {
      if (child) {
        node.appendChild(child);
      }
    });
    return node;
  }

  // --- drawing the queue and the refused slips ---------------------------------------------

  function drawQueue() {
    queueList.textContent = "";
    queue.forEach(function (slip, i) {
      var state = i > 0 ? text("waiting")
        : retryTimer ? text("retrying", { s: Math.round(retryDelay / 1000) })
        : text("sending");
      queueList.appendChild(el("li", { "class": "sk-slip sk-slip-queued", "data-slip": slip.id }, [
        el("span", { "class": "sk-slip-what", text: text("slip", { t: slip.table, r: slip.result }) }),
        document.createTextNode(" "),
        el("span", { "class": "meta", text: "(" + state + ")" })
      ]));
    });
    queueSection.hidden = queue.length === 0;
  }

  function field(slip, name, label, size) {
    var id = "sk-" + name + "-" + slip.id;
    var input = el("input", {
      type: "text", id: id, name: name, value: slip[name], size: size, maxlength: name === "table" ? "8" : "12",
      autocomplete: "off", spellcheck: "false", "aria-describedby": "sk-reason-" + slip.id
    });
    if (name === "table") {
      input.setAttribute("inputmode", "numeric");
    }
    if (slip.field === name) {
      input.setAttribute("aria-invalid", "true");
    }
    return el("div", { "class": "form-row" + (slip.field === name ? " has-error" : "") }, [
      el("label", { "for": id, text: label }), input
    ]);
  }

  function refusedItem(slip) {
    var retry = el("form", { "class": "sk-retry", "data-slip": slip.id }, [
      el("p", { "class": "sk-reason field-error", id: "sk-reason-" + slip.id, text: slip.message }),
      field(slip, "table", text("table"), "6"),
      field(slip, "result", text("result"), "8"),
      el("div", { "class": "sk-retry-actions" }, [
        slip.confirmLabel
          ? el("button", { type: "button", "class": "button-danger", "data-action": "confirm", text: slip.confirmLabel })
          : null,
        el("button", { type: "submit", "class": slip.confirmLabel ? "button-secondary" : "", text: text("send-again") }),
        el("button", { type: "button", "class": "button-secondary", "data-action": "discard", text: text("discard") }),
        slip.link ? el("a", { href: slip.link.url, text: slip.link.text }) : null
      ])
    ]);
    return el("li", { "class": "sk-slip sk-slip-refused", id: "sk-refused-" + slip.id }, [retry]);
  }

  // Refused slips are added and removed one by one, never redrawn: a slip being corrected
  // keeps what is typed in it and the focus while other slips are answered.
  function showRefused(slip) {
    refusedList.appendChild(refusedItem(slip));
    refusedSection.hidden = false;
  }

  function dropRefused(at) {
    var item = document.getElementById("sk-refused-" + refused[at].id);
    if (item) {
      item.remove();
    }
    refused.splice(at, 1);
    refusedSection.hidden = refused.length === 0;
  }

  function draw() {
    drawQueue();
    store();
  }

  function findRefused(id) {
    for (var i = 0; i < refused.length; i++) {
      if (String(refused[i].id) === String(id)) {
        return i;
      }
    }
    return -1;
  }

  // --- a saved slip joins the running list --------------------------------------------------

  function cell(label, children, cls) {
    var attrs = { "data-label": label };
    if (cls) {
      attrs["class"] = cls;
    }
    return el("td", attrs, children);
  }

  function addSaved(answer) {
    var none = saved.querySelector(".sk-none");
    if (none) {
      none.remove();
    }
    var what = [el("strong", { text: answer.result })];
    if (answer.unchanged) {
      what.push(document.createTextNode(" "));
      what.push(el("span", { "class": "meta", text: "(" + text("unchanged") + ")" }));
    }
    var row = el("tr", { "class": "sk-saved-row", "data-table": answer.table }, [
      cell(headers[0], [document.createTextNode(String(answer.table))], "num"),
      cell(headers[1], [document.createTextNode(answer.players || "")]),
      cell(headers[2], what),
      cell(headers[3], [el("time", { datetime: answer.datetime, text: answer.time })]),
      cell(headers[4], [answer.undo_url ? el("a", { href: answer.undo_url, text: answer.undo_text }) : null])
    ]);
    saved.insertBefore(row, saved.firstChild);
  }

  // --- sending, one slip at a time ----------------------------------------------------------

  function csrf() {
    // The cookie's token is the current one even after logging in again in another tab.
    var found = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    return found ? decodeURIComponent(found[1]) : token ? token.value : "";
  }

  function body(slip) {
    var data = new FormData();
    data.append("csrfmiddlewaretoken", csrf());
    data.append("table", slip.table);
    data.append("result", slip.result);
    if (slip.confirm) {
      data.append("confirm_override", "1");
    }
    return data;
  }

  function refuse(slip, answer) {
    var kept = {
      id: slip.id,
      table: slip.table,
      result: slip.result,
      message: answer.message,
      field: answer.field || "",
      link: answer.link || null,
      confirmLabel: answer.confirm ? answer.confirm.label : ""
    };
    refused.push(kept);
    showRefused(kept);
    announce(answer.message);
  }

  function retryLater() {
    retryDelay = Math.min(retryDelay ? retryDelay * 2 : 2000, 30000);
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      pump();
    }, retryDelay);
    draw();
  }

  function pump() {
    if (sending || retryTimer || queue.length === 0) {
      return;
    }
    sending = true;
    var slip = queue[0];
    draw();
    fetch(form.getAttribute("action"), {
      method: "POST",
      body: body(slip),
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-Requested-With": "fetch" }
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") !== -1) {
        return response.json().then(function (answer) {
          return { status: response.status, answer: answer };
        });
      }
      if (response.status >= 500) {
        throw new Error(String(response.status));  // the server's trouble: try again
      }
      var loggedOut = response.redirected && /\/accounts\/login\//.test(response.url);
      return {
        status: response.status,
        answer: {
          ok: false,
          message: loggedOut
            ? text("logged-out", { t: slip.table })
            : text("no-answer", { t: slip.table, status: response.status })
        }
      };
    }).then(function (reply) {
      sending = false;
      retryDelay = 0;
      queue.shift();
      if (reply.answer.ok) {
        addSaved(reply.answer);
        announce(reply.answer.message);
      } else {
        refuse(slip, reply.answer);
      }
      draw();
      pump();
    }).catch(function () {
      sending = false;
      retryLater();
    });
  }

  function enqueue(slip) {
    slip.id = nextId++;
    queue.push(slip);
    draw();
    pump();
  }

  // --- the form and the refused slips' buttons ----------------------------------------------

  table.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && table.value.trim() && !result.value.trim()) {
      event.preventDefault();
      result.focus();
    }
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var slip = { table: table.value.trim(), result: result.value.trim(), confirm: false };
    if (!slip.table) {
      table.focus();
      return;
    }
    if (!slip.result) {
      result.focus();
      return;
    }
    // The form is free for the next slip at once; this one waits its turn in the queue.
    form.reset();
    table.value = "";
    result.value = "";
    table.removeAttribute("aria-invalid");
    result.removeAttribute("aria-invalid");
    var shown = document.getElementById("sk-refusal");
    if (shown) {
      shown.remove();
    }
    table.focus();
    enqueue(slip);
  });

  function resend(retry, confirm) {
    var at = findRefused(retry.getAttribute("data-slip"));
    if (at < 0) {
      return;
    }
    var slip = refused[at];
    var again = {
      table: retry.querySelector("input[name=table]").value.trim(),
      result: retry.querySelector("input[name=result]").value.trim(),
      confirm: false
    };
    if (!again.table || !again.result) {
      retry.querySelector(again.table ? "input[name=result]" : "input[name=table]").focus();
      return;
    }
    // The confirmation answers the question asked about this slip; an edited slip is
    // checked afresh (and asks again if it still overrides a report).
    again.confirm = confirm && again.table === slip.table && again.result === slip.result;
    dropRefused(at);
    table.focus();
    enqueue(again);
  }

  refusedList.addEventListener("submit", function (event) {
    event.preventDefault();
    resend(event.target, false);
  });

  refusedList.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-action]");
    if (!button) {
      return;
    }
    var retry = button.closest("form");
    if (button.getAttribute("data-action") === "confirm") {
      resend(retry, true);
    } else {
      var at = findRefused(retry.getAttribute("data-slip"));
      if (at >= 0) {
        dropRefused(at);
        draw();
      }
      table.focus();
    }
  });

  window.addEventListener("online", function () {
    if (retryTimer) {
      window.clearTimeout(retryTimer);
      retryTimer = null;
      pump();
    }
  });

  slips.hidden = false;
  restore();
  refused.forEach(showRefused);
  draw();
  pump();
})();
