/* Adjudication page (every game's: nothing here knows a game).
   - The step slider shows the pre-rendered step panels without reloading. Without JavaScript
     the Previous/Next/Show buttons post the form and the server renders the chosen step.
   - The record is built in the page: every button of the form that posts to the page itself
     (start the record, add an action, a one-tap action, replay, search) is sent with fetch and
     the page's answer (the same HTML as without JavaScript, 200 or 400) replaces the page's
     content: no page load per action. The board after the last action is shown beside the
     builder ("The board now", a copy of the last step's panel).
   - A draft per match is kept in this browser (localStorage): the record as it stands and the
     entries made while offline. When the connection drops, an added action waits in the draft
     (listed on the page, with the action the judge chose, so that it is found again among the
     legal actions when replayed); when it returns (the "online" event, or a retry every few
     seconds) the entries are replayed one by one, in order; one the server refuses stops the
     replay and is shown with the server's reason. A page opened again finds the draft and
     replays it. Rule with the record: the draft is done and forgotten.
   The texts come translated from the data attributes of the [data-adj-offline] element. */
(function () {
  "use strict";
  var FORM_ID = "adj-form";
  var RETRY_MS = 5000;
  var busy = false;
  var retryTimer = null;
  var lastSubmitter = null;

  function form() { return document.getElementById(FORM_ID); }

  // --- the step slider (re-run after each update of the page) --------------------------------

  function initSlider() {
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
  }

  var start = form();
  if (!start || !window.fetch || !window.FormData || !window.DOMParser) {
    initSlider();
    return;
  }
  var KEY = "battledesk.adjudicate." + (start.getAttribute("data-adj-draft") || location.pathname);
  var PAGE = start.getAttribute("action");

  // --- texts, notices ------------------------------------------------------------------------

  function box() { return document.querySelector("[data-adj-offline]"); }

  function text(name, values) {
    var b = box();
    var template = (b && b.getAttribute("data-" + name)) || "";
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return values && key in values ? String(values[key]) : all;
    });
  }

  function announce(message) {
    var live = document.querySelector("[data-adj-announce]");
    if (live) {
      live.textContent = "";
      live.textContent = message;
    }
  }

  var notice = { kind: "", message: "", discard: false };

  function setNotice(kind, message, discard) {
    notice = { kind: kind, message: message, discard: !!discard };
    render();
  }

  // --- the draft in this browser ---------------------------------------------------------------

  function load() {
    try {
      var d = JSON.parse(window.localStorage.getItem(KEY) || "null");
      if (d && typeof d === "object") {
        d.pending = Array.isArray(d.pending) ? d.pending : [];
        d.record = typeof d.record === "string" ? d.record : "";
        return d;
      }
    } catch (e) { /* no storage, or junk in it: no draft */ }
    return null;
  }

  function save(d) {
    d.saved = Date.now();
    try { window.localStorage.setItem(KEY, JSON.stringify(d)); } catch (e) { /* full or off */ }
  }

  function forget() {
    try { window.localStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
  }

  function recordBox() {
    var f = form();
    return f ? f.querySelector("textarea[name=record]") : null;
  }

  function draft() { return load() || { record: "", pending: [] }; }

  function keepRecord() {
    var r = recordBox();
    if (!r) { return; }
    var d = draft();
    d.record = r.value;
    save(d);
  }

  // --- what the page shows of the draft --------------------------------------------------------

  function render() {
    var b = box();
    if (!b) { return; }
    var d = draft();
    while (b.firstChild) { b.removeChild(b.firstChild); }
    var show = false;
    if (notice.message) {
      var p = document.createElement("p");
      p.className = "message message-" + (notice.kind || "warning");
      p.textContent = notice.message;
      b.appendChild(p);
      show = true;
      if (notice.discard) {
        var discard = document.createElement("button");
        discard.type = "button";
        discard.className = "button-secondary";
        discard.textContent = text("discard");
        discard.addEventListener("click", function () {
          forget();
          window.location.reload();
        });
        b.appendChild(discard);
      }
    }
    if (d.pending.length) {
      show = true;
      var h = document.createElement("h2");
      h.textContent = text("waiting");
      b.appendChild(h);
      var intro = document.createElement("p");
      intro.textContent = text("queued", { n: d.pending.length });
      b.appendChild(intro);
      var list = document.createElement("ol");
      list.className = "adj-pending";
      d.pending.forEach(function (entry) {
        var li = document.createElement("li");
        li.textContent = entry.label + (entry.failed ? " — " + entry.failed : "");
        if (entry.failed) { li.className = "adj-pending-failed"; }
        list.appendChild(li);
      });
      b.appendChild(list);
      var stale = document.createElement("p");
      stale.className = "help";
      stale.textContent = text("stale");
      b.appendChild(stale);
      var drop = document.createElement("button");
      drop.type = "button";
      drop.className = "button-secondary";
      drop.textContent = text("drop");
      drop.addEventListener("click", function () {
        var dd = draft();
        dd.pending = [];
        save(dd);
        setNotice("", "");
      });
      b.appendChild(drop);
    }
    b.hidden = !show;
  }

  function boardNow() {
    var aside = document.querySelector("[data-adj-board-now]");
    var slot = document.querySelector("[data-adj-board-slot]");
    if (!aside || !slot) { return; }
    var range = document.querySelector("[data-adj-range]");
    var last = range ? range.max : null;
    var panel = (last !== null && document.querySelector('.adj-step-panel[data-step="' + last + '"]')) ||
      document.querySelector(".adj-step-panel:not([hidden])");
    while (slot.firstChild) { slot.removeChild(slot.firstChild); }
    if (!panel) {
      aside.hidden = true;
      return;
    }
    for (var i = 0; i < panel.childNodes.length; i++) {
      slot.appendChild(panel.childNodes[i].cloneNode(true));
    }
    aside.hidden = false;
  }

  function init() {
    var root = document.querySelector(".adjudicate");
    if (root) { root.classList.add("adj-live"); }
    initSlider();
    boardNow();
    render();
    var r = recordBox();
    if (r) {
      r.addEventListener("input", function () { keepRecord(); });
    }
  }

  // --- sending a form in the page ----------------------------------------------------------------

  function setBusy(on) {
    busy = on;
    var f = form();
    if (f) { f.setAttribute("aria-busy", on ? "true" : "false"); }
  }

  function csrf() {
    var f = form();
    var input = f ? f.querySelector("input[name=csrfmiddlewaretoken]") : null;
    return input ? input.value : "";
  }

  /* POST ``data`` to the page; the answer replaces the page's content. Resolves with the
     answer's status (200, or 400 for a refusal shown on the page); rejects with
     {offline: true} when the request did not reach the server, {status} for any other answer. */
  function send(data) {
    setBusy(true);
    return fetch(PAGE, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch" }
    }).then(function (response) {
      if (response.status !== 200 && response.status !== 400) {
        throw { status: response.status };
      }
      return response.text().then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector(".adjudicate");
        var here = document.querySelector(".adjudicate");
        if (!fresh || !here) { throw { status: response.status }; }
        here.innerHTML = fresh.innerHTML;
        init();
        return response.status;
      });
    }, function () {
      throw { offline: true };
    }).then(function (status) {
      setBusy(false);
      return status;
    }, function (problem) {
      setBusy(false);
      throw problem;
    });
  }

  function pageErrors() {
    var errors = document.querySelectorAll(".adj-errors li");
    var out = [];
    for (var i = 0; i < errors.length; i++) { out.push(errors[i].textContent.trim()); }
    return out.join("; ");
  }

  function verdict() {
    var v = document.querySelector("[data-adj-verdict]");
    return v ? v.textContent.trim() : "";
  }

  function lastAction() {
    var items = document.querySelectorAll("ol.adj-actions > li");
    return items.length ? items[items.length - 1].textContent.trim() : "";
  }

  /* After an action is added the judge picks the next one: focus the legal action chosen by
     default (arrow keys pick another), or the first one-tap button; else where they were. */
  function refocus(submitter, entry) {
    var target = null;
    if (entry) {
      target = document.querySelector(".adj-builder input[type=radio]:checked, .adj-builder button[name=quick]");
    }
    if (!target && submitter && submitter.id) { target = document.getElementById(submitter.id); }
    if (!target) { target = document.querySelector("#next-heading, [data-adj-verdict]"); }
    if (target) {
      if (!target.hasAttribute("tabindex") && !/^(BUTTON|INPUT|SELECT|TEXTAREA|A)$/.test(target.tagName)) {
        target.setAttribute("tabindex", "-1");
      }
      target.focus({ preventScroll: true });
    }
  }

  // An entry kept while offline: the fields of the builder (not the record, the file or the
  // token) and the actions the judge saw chosen ("expect_" + the input's name).
  function entryFrom(f, data, submitter) {
    var fields = [];
    data.forEach(function (value, name) {
      if (name === "record" || name === "record_file" || name === "csrfmiddlewaretoken" ||
          typeof value !== "string") {
        return;
      }
      fields.push([name, value]);
    });
    var checked = f.querySelectorAll("input[data-adj-expect]:checked");
    for (var i = 0; i < checked.length; i++) {
      fields.push(["expect_" + checked[i].name, checked[i].getAttribute("data-adj-expect")]);
    }
    return { fields: fields, label: entryLabel(f, submitter) };
  }

  function entryLabel(f, submitter) {
    var parts = [];
    if (submitter && submitter.name === "quick") {
      parts.push(submitter.textContent.trim());
    } else {
      var builder = f.querySelector(".adj-builder") || f;
      var checked = builder.querySelector("input[type=radio]:checked");
      var label = checked ? f.querySelector('label[for="' + checked.id + '"]') : null;
      var select = builder.querySelector("select");
      if (label) {
        parts.push(label.textContent.trim());
      } else if (select && select.selectedIndex >= 0) {
        parts.push(select.options[select.selectedIndex].textContent.trim());
      }
      var typed = builder.querySelectorAll("input[type=text], textarea");
      for (var i = 0; i < typed.length; i++) {
        if (typed[i].value.trim()) { parts.push(typed[i].value.trim()); }
      }
    }
    return parts.join(" · ");
  }

  function clearTyped(f) {
    var builder = f.querySelector(".adj-builder");
    if (!builder) { return; }
    var typed = builder.querySelectorAll("input[type=text], textarea");
    for (var i = 0; i < typed.length; i++) { typed[i].value = ""; }
  }

  function isEntry(data) {
    return data.get("op") === "append" || !!data.get("quick");
  }

  function goneOffline(f, data, submitter) {
    if (isEntry(data)) {
      var d = draft();
      var r = recordBox();
      if (!d.pending.length && r) { d.record = r.value; }
      var entry = entryFrom(f, data, submitter);
      d.pending.push(entry);
      save(d);
      clearTyped(f);
      setNotice("warning", text("offline"));
      announce(text("queued", { n: d.pending.length }));
    } else {
      keepRecord();
      setNotice("warning", text("offline-not-now"));
    }
    later();
  }

  function later() {
    if (retryTimer) { return; }
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      flush();
    }, RETRY_MS);
  }

  /* Replay the entries waiting, one by one and in order, on the record as it stands. */
  function flush() {
    var d = draft();
    if (busy || !d.pending.length) { return; }
    if (navigator.onLine === false) { later(); return; }
    var entry = d.pending[0];
    if (entry.failed) { return; } /* the judge decides: drop them, or fix the record */
    var data = new FormData();
    data.append("csrfmiddlewaretoken", csrf());
    data.append("record", d.record);
    entry.fields.forEach(function (pair) { data.append(pair[0], pair[1]); });
    setNotice("info", text("sending"));
    send(data).then(function (status) {
      var dd = draft();
      if (status !== 200) {
        if (dd.pending.length) { dd.pending[0].failed = pageErrors(); }
        save(dd);
        setNotice("error", text("failed", { error: pageErrors() }));
        return;
      }
      dd.pending.shift();
      var r = recordBox();
      if (r) { dd.record = r.value; }
      save(dd);
      if (dd.pending.length) {
        render();
        flush();
      } else {
        setNotice("", "");
        announce(verdict());
      }
    }, function (problem) {
      if (problem && problem.offline) {
        setNotice("warning", text("offline"));
        later();
      } else {
        setNotice("error", text("server", { status: problem && problem.status }));
      }
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("button, input[type=submit]") : null;
    if (button && button.form && button.form.id === FORM_ID) { lastSubmitter = button; }
  }, true);

  // Capture: before offline.js's own handler of offline forms, which this one replaces here.
  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (!f || f.id !== FORM_ID) { return; }
    var submitter = event.submitter || lastSubmitter;
    var target = (submitter && submitter.getAttribute("formaction")) || f.getAttribute("action");
    if (target !== PAGE) {
      forget(); /* the ruling: the record goes with it, the draft is done */
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    if (busy) { return; }
    var data = new FormData(f);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    if (draft().pending.length) {
      /* entries wait: this one waits behind them, in order */
      if (isEntry(data)) { goneOffline(f, data, submitter); flush(); return; }
    }
    if (navigator.onLine === false) {
      goneOffline(f, data, submitter);
      return;
    }
    send(data).then(function (status) {
      keepRecord();
      setNotice("", "");
      refocus(submitter, status === 200 && isEntry(data));
      if (status === 200 && isEntry(data)) {
        announce(text("added", { label: lastAction() }) + " " + verdict());
      } else if (status !== 200) {
        announce(pageErrors());
      } else {
        announce(verdict());
      }
    }, function (problem) {
      if (problem && problem.offline) {
        goneOffline(f, data, submitter);
      } else {
        setNotice("error", text("server", { status: problem && problem.status }));
      }
    });
  }, true);

  window.addEventListener("online", function () { flush(); });

  // --- a draft kept from before: shown and replayed -----------------------------------------------

  init();
  var kept = load();
  var r0 = recordBox();
  if (kept && r0 && ((kept.record && kept.record !== r0.value) || kept.pending.length)) {
    if (kept.record) { r0.value = kept.record; }
    var when = new Date(kept.saved || Date.now());
    var time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    var restored = function () { setNotice("info", text("restored", { time: time }), true); };
    restored();
    if (navigator.onLine !== false && kept.record) {
      var replay = new FormData();
      replay.append("csrfmiddlewaretoken", csrf());
      replay.append("record", kept.record);
      replay.append("op", "replay");
      send(replay).then(function () { restored(); flush(); }, function () { later(); });
    } else {
      later();
    }
  } else {
    keepRecord();
  }
})();
