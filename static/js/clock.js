/* Match clock (templates/matches/clock.html): one phone at the table runs it for both players.

   The server keeps the clock as a log of presses; this script shows its state and counts down
   on the device from the last state it got (GET data-api-url: remaining_ms per side, the
   active side, delay_left_ms, paused...), so the ticking needs no connection. It re-syncs every
   few seconds, when the page becomes visible and after each press. A press is a POST of
   {kind, side, payload, expected_seq}; nothing is queued: a press that fails says so, and the
   page re-syncs (a 409 carries the current state: another phone pressed first). When a side's
   time reaches 0 the script posts `flag` for it; the server checks it against its own times.
   Without JavaScript the same buttons are forms and the page shows the times as rendered.
   No build step, no dependencies. */
(function () {
  "use strict";
  var POLL_MS = 4000;
  var TICK_MS = 100;
  var FLAG_RETRY_MS = 1500;

  var root = document.getElementById("match-clock");
  var form = document.getElementById("clock-form");
  var stateNode = document.getElementById("clock-state");
  if (!root || !form || !stateNode || !window.fetch) { return; }

  var apiUrl = root.getAttribute("data-api-url");
  var statusEl = document.getElementById("clock-status");
  var errorEl = document.getElementById("clock-error");
  var syncEl = document.getElementById("clock-sync");
  var gamesEl = document.getElementById("clock-games");
  var gamesList = document.getElementById("clock-games-list");
  var bidInputs = { a: document.getElementById("clock-bid-a"), b: document.getElementById("clock-bid-b") };
  var seqInput = form.querySelector("input[name=expected_seq]");
  var csrf = (form.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  var halves = {};
  Array.prototype.forEach.call(form.querySelectorAll(".clock-half"), function (el) {
    halves[el.getAttribute("data-side")] = el;
  });

  // The two-step "game over" choice: it belongs to the game it was opened in, so it closes
  // when that game ends or another one starts (from this phone or another).
  var gameOverStep = form.querySelector(".clock-confirm");
  var gameOverFor = null;  // the game the step may stay open for (null: none running)
  var state = null;        // the last state from the server
  var syncedAt = 0;        // performance.now() when it arrived
  var busy = false;        // a press is in flight: polls wait
  var lastFlag = 0;
  var lastAnnounced = "";

  function label(name, value) {
    var text = root.getAttribute("data-label-" + name) || "%s";
    if (value && typeof value === "object") {
      return text.replace(/%\((\w+)\)s/g, function (_m, key) { return value[key]; });
    }
    return text.replace("%s", value === undefined ? "" : value);
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function clockText(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  /* The state projected to now: the delay runs first, then the active side's time. */
  function projected() {
    var elapsed = Math.max(0, performance.now() - syncedAt);
    var out = { a: state.remaining_ms.a, b: state.remaining_ms.b, delay: state.delay_left_ms };
    if (state.running && state.active) {
      var usedDelay = Math.min(elapsed, state.delay_left_ms);
      out.delay = state.delay_left_ms - usedDelay;
      out[state.active] = Math.max(0, out[state.active] - (elapsed - usedDelay));
    }
    return out;
  }

  function show(name, visible) {
    var el = form.querySelector("[data-show=" + name + "]");
    if (el) { el.hidden = !visible; }
  }

  function statusText() {
    if (!state.enabled) { return label("status-off"); }
    var name = state.active ? state.players[state.active] : "";
    var text;
    if (state.phase === "ready") { text = label("status-ready", state.game + 1); }
    else if (state.phase === "running" && state.paused) { text = label("status-paused", { name: name }); }
    else if (state.phase === "running") { text = label("status-running", { game: state.game, name: name }); }
    else if (state.phase === "between_games") { text = label("status-between", state.game); }
    else { text = label("status-over"); }
    if (state.flagged) { text += " " + label("flagged", state.players[state.flagged]); }
    return text;
  }

  /* The games the clock saw: "Game 1: A won (pressed by B)", "Game 2: B lost on time". */
  function renderGames() {
    if (!gamesEl || !gamesList) { return; }
    var games = state.games || [];
    gamesEl.hidden = games.length === 0;
    var items = games.map(function (g) {
      var text;
      if (g.end === "time") {
        text = label("game-time", { n: g.number, name: state.players[g.winner === "a" ? "b" : "a"] });
      } else {
        text = label("game-won", { n: g.number, name: state.players[g.winner] });
        if (g.pressed_by) { text += " " + label("pressed-by", g.pressed_by); }
      }
      if (g.bids) { text += " · " + label("bids", { a: g.bids[0], b: g.bids[1] }); }
      return text;
    });
    var key = items.join("\n");
    if (gamesList.getAttribute("data-rendered") === key) { return; }
    gamesList.setAttribute("data-rendered", key);
    gamesList.textContent = "";
    items.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      gamesList.appendChild(li);
    });
  }

  /* The start form's optional bids: none, or both as numbers (the server checks them). */
  function bids() {
    if (!bidInputs.a || !bidInputs.b) { return null; }
    var a = bidInputs.a.value.trim(), b = bidInputs.b.value.trim();
    if (!a && !b) { return null; }
    return [a === "" ? null : Number(a), b === "" ? null : Number(b)];
  }

  /* What changes only with a new state: buttons, labels, the announcement. */
  function renderState() {
    seqInput.value = state.seq;
    var live = state.enabled && state.match_status !== "final" && state.phase !== "over";
    ["a", "b"].forEach(function (side) {
      var el = halves[side];
      if (!el) { return; }
      var mine = state.running && state.active === side;
      el.disabled = !(live && mine);
      el.classList.toggle("is-active", state.active === side && state.phase === "running");
      var paused = state.phase === "running" && state.paused && state.active === side;
      el.classList.toggle("is-paused", paused);
      var hint = el.querySelector(".clock-hint");
      if (hint) { hint.textContent = mine && live ? label("hint-turn") : paused ? label("hint-paused") : ""; }
    });
    show("pause", live && state.phase === "running" && !state.paused);
    show("resume", live && state.phase === "running" && state.paused);
    show("game-end", live && state.phase === "running");
    var runningGame = live && state.phase === "running" ? state.game : null;
    if (gameOverStep && runningGame !== gameOverFor) {
      gameOverStep.open = false;
      gameOverFor = runningGame;
    }
    show("start", live && (state.phase === "ready" || state.phase === "between_games"));
    renderGames();
    var text = statusText();
    if (text !== lastAnnounced) {
      statusEl.textContent = text;
      lastAnnounced = text;
    }
    tick();
  }

  /* Every TICK_MS: the digits, the delay, the flag buttons, the automatic flag. */
  function tick() {
    if (!state || !state.remaining_ms) { return; }
    var now = projected();
    var live = state.enabled && state.match_status !== "final" && state.phase === "running";
    ["a", "b"].forEach(function (side) {
      var el = halves[side];
      if (!el) { return; }
      var time = el.querySelector("[data-time]");
      var text = clockText(now[side]);
      if (time.textContent !== text) { time.textContent = text; }
      el.classList.toggle("is-low", now[side] < 60000);
      el.classList.toggle("is-out", now[side] <= 0);
      var delay = el.querySelector("[data-delay]");
      var inDelay = live && state.active === side && now.delay > 0;
      delay.hidden = !inDelay;
      if (inDelay) { delay.textContent = label("delay", clockText(now.delay)); }
    });
    var out = live && state.active && now[state.active] <= 0 ? state.active : null;
    show("flag-a", out === "a" || (live && state.out_of_time === "a"));
    show("flag-b", out === "b" || (live && state.out_of_time === "b"));
    if (out && !busy && performance.now() - lastFlag > FLAG_RETRY_MS) {
      lastFlag = performance.now();
      press("flag", out, {});
    }
  }

  function accept(data) {
    if (!data || typeof data.seq !== "number") { return; }
    state = data;
    syncedAt = performance.now();
    if (syncEl) { syncEl.textContent = label("synced"); }
    renderState();
  }

  function fail(message) {
    errorEl.textContent = message;
  }

  function sync() {
    if (busy) { return Promise.resolve(); }
    return fetch(apiUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && !busy) { accept(data); } })
      .catch(function () { if (syncEl) { syncEl.textContent = label("unsynced"); } });
  }

  function press(kind, side, payload) {
    if (busy || !state) { return; }
    busy = true;
    errorEl.textContent = "";
    var body = { kind: kind, expected_seq: state.seq, payload: payload || {} };
    if (side) { body.side = side; }
    fetch(apiUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        busy = false;
        if (r.ok) {
          if (kind === "start" && bidInputs.a && bidInputs.b) { bidInputs.a.value = ""; bidInputs.b.value = ""; }
          accept(data);
          return;
        }
        if (data.code === "stale_seq" && data.clock) {
          accept(data.clock);
          fail(label("stale"));
          return;
        }
        if (kind !== "flag") { fail(data.detail || r.statusText); }
        sync();
      });
    }).catch(function () {
      busy = false;
      fail(label("offline"));
    });
  }

  form.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (!button || !button.value) { return; }  // let the form post: the server decides
    event.preventDefault();
    var parts = button.value.split(":");
    var kind = parts[0], side = parts[1] || "", argument = parts[2] || "";
    var payload = {};
    if (kind === "start") {
      payload.first = argument;
      var given = bids();
      if (given) { payload.bids = given; }
    }
    if (kind === "game_end") { payload.winner = argument; }
    press(kind, side, payload);
  });

  // Face to face: the phone lies between the players, the top half turned towards the one
  // across the table (remembered on this phone).
  var flip = document.getElementById("clock-flip");
  if (flip) {
    var flipped = false;
    try { flipped = window.localStorage.getItem("battledesk:clock-flip") === "1"; } catch (e) { /* */ }
    var setFlip = function (on) {
      root.classList.toggle("is-flipped", on);
      flip.setAttribute("aria-pressed", on ? "true" : "false");
      try { window.localStorage.setItem("battledesk:clock-flip", on ? "1" : "0"); } catch (e) { /* */ }
    };
    flip.hidden = false;
    setFlip(flipped);
    flip.addEventListener("click", function () { setFlip(!root.classList.contains("is-flipped")); });
  }

  try { accept(JSON.parse(stateNode.textContent)); } catch (e) { return; }
  // The rendered state is as of the server's render: fetch a fresh one at once.
  sync();
  setInterval(tick, TICK_MS);
  setInterval(function () { if (!document.hidden) { sync(); } }, POLL_MS);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { sync(); } });
  window.addEventListener("online", sync);

  // Keep the screen on while the clock runs, where the browser allows it.
  if (navigator.wakeLock && navigator.wakeLock.request) {
    navigator.wakeLock.request("screen").catch(function () { /* not allowed: fine */ });
  }
})();
