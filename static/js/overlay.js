/* Stream overlays (docs/overlays.md): draws the overlay from its JSON feed and keeps it live.
   Server-sent events first (EventSource on data-stream); when the stream is refused (204
   under WSGI, or any non-200) or the browser has no EventSource, the feed is polled every
   data-poll seconds with If-None-Match. A running match clock is counted down here from
   its last press (the feed only changes on a press). */
(function () {
  "use strict";

  var root = document.querySelector("[data-overlay]");
  if (!root) { return; }
  var kind = root.getAttribute("data-overlay");
  var labels = root.dataset;
  var skew = 0; // server time minus this browser's time, in ms
  var clockData = null;
  var clockTimer = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function field(name) { return root.querySelector('[data-f="' + name + '"]'); }

  function setText(name, text) {
    var node = field(name);
    if (node) { node.textContent = text === null || text === undefined ? "" : String(text); }
  }

  function statusWord(status) { return labels["l" + status.charAt(0).toUpperCase() + status.slice(1)] || status; }

  function mmss(ms) {
    var total = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(total / 60);
    var s = total % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function roundName(round) { return round ? round.name : ""; }

  function drawClock() {
    var c = clockData;
    if (!c) { setText("a-clock", ""); setText("b-clock", ""); return; }
    var a = c.remaining_ms.a;
    var b = c.remaining_ms.b;
    if (c.running && c.active) {
      var elapsed = Date.now() + skew - Date.parse(c.as_of);
      var spent = Math.max(0, elapsed - Math.min(elapsed, c.delay_left_ms));
      if (c.active === "a") { a = Math.max(0, a - spent); } else { b = Math.max(0, b - spent); }
    }
    setText("a-clock", mmss(a));
    setText("b-clock", mmss(b));
    ["a", "b"].forEach(function (side) {
      var node = field(side + "-clock");
      if (node) { node.classList.toggle("ov-active", c.running && c.active === side); }
    });
  }

  function renderFeature(data) {
    var m = data.match;
    setText("round", roundName(data.round));
    root.classList.toggle("ov-empty", !m);
    if (!m) {
      setText("a-name", labels.lEmpty); setText("b-name", "");
      ["a-games", "b-games", "status", "table", "replay", "a-replay", "b-replay"].forEach(function (f) { setText(f, ""); });
      field("details").replaceChildren();
      clockData = null; drawClock();
      return;
    }
    setText("table", m.table ? labels.lTable + " " + m.table : "");
    setText("a-name", m.players.a.name);
    setText("b-name", m.players.b ? m.players.b.name : labels.lBye);
    setText("a-games", m.game_score ? m.game_score.a : "");
    setText("b-games", m.game_score ? m.game_score.b : "");
    setText("status", statusWord(m.status));
    var list = field("details");
    list.replaceChildren.apply(list, m.details.map(function (line) { return el("li", null, line); }));
    var r = m.replay;
    setText("replay", r && r.label ? r.label + (r.decided ? " (" + r.decided + ")" : "") : "");
    setText("a-replay", r && r.score.a !== undefined ? r.score.a : "");
    setText("b-replay", r && r.score.b !== undefined ? r.score.b : "");
    clockData = m.clock;
    drawClock();
    if (clockTimer === null && clockData) { clockTimer = window.setInterval(drawClock, 250); }
  }

  function pairingLine(row) {
    var text = (row.table ? labels.lTable + " " + row.table + ": " : "") + row.a + " ";
    text += row.bye ? labels.lBye : labels.lVs + " " + row.b;
    if (row.games) { text += " " + row.games[0] + "\u2013" + row.games[1] + (row.games[2] ? "\u2013" + row.games[2] : ""); }
    else { text += " \u00b7 " + statusWord(row.status); }
    return text;
  }

  function renderPairings(data) {
    setText("round", roundName(data.round));
    var list = field("rows");
    list.replaceChildren.apply(list, data.rows.map(function (row) { return el("li", "ov-row", pairingLine(row)); }));
  }

  function renderStandings(data) {
    setText("round", data.after_round ? labels.lAfter + " " + data.after_round : "");
    var list = field("rows");
    list.replaceChildren.apply(list, data.rows.map(function (row) {
      return el("li", "ov-row", row.rank + ". " + row.name + " \u00b7 " + row.points + " " + labels.lPoints + " (" + row.record + ")");
    }));
  }

  function renderBracket(data) {
    var box = field("rounds");
    box.replaceChildren.apply(box, data.rounds.map(function (round) {
      var col = el("section", "ov-col");
      col.appendChild(el("h2", null, round.name));
      var list = el("ol", "ov-bracket-round");
      round.matches.forEach(function (row) { list.appendChild(el("li", "ov-row", pairingLine(row))); });
      col.appendChild(list);
      return col;
    }));
    setText("champion", data.champion ? labels.lChampion + " " + data.champion : "");
  }

  var renderers = { feature: renderFeature, pairings: renderPairings, standings: renderStandings, bracket: renderBracket };

  function apply(data) {
    if (data.server_now) { skew = Date.parse(data.server_now) - Date.now(); }
    renderers[kind](data);
    root.setAttribute("data-updated", String(Date.now()));
  }

  var etag = null;
  var polling = false;
  var pollMs = Math.max(1, parseFloat(root.getAttribute("data-poll")) || 2) * 1000;

  function poll() {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(root.getAttribute("data-feed"), { headers: headers, cache: "no-store" })
      .then(function (response) {
        if (response.status !== 200) { return null; }
        etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (data) { if (data) { apply(data); } })
      .catch(function () { /* the venue's network: try again at the next poll */ })
      .then(function () { if (polling) { window.setTimeout(poll, pollMs); } });
  }

  function startPolling() {
    if (polling) { return; }
    polling = true;
    root.setAttribute("data-live", "polling");
    poll();
  }

  var streamUrl = root.getAttribute("data-stream");
  if (window.EventSource && streamUrl) {
    var source = new EventSource(streamUrl);
    root.setAttribute("data-live", "connecting");
    source.addEventListener("open", function () { root.setAttribute("data-live", "stream"); });
    source.addEventListener("overlay", function (event) { apply(JSON.parse(event.data)); });
    source.addEventListener("error", function () {
      // CLOSED: refused (204 under WSGI, an error status): it will not reconnect, so poll.
      // CONNECTING: a dropped stream or its maximum life; the browser reconnects itself.
      if (source.readyState === EventSource.CLOSED) { startPolling(); }
    });
  } else {
    startPolling();
  }
})();
