/* Choosing another game in a form marked data-game-switch="<id>" fills in that game's
   defaults, read from the JSON script element <id>: {game: {name, fields: {field: value},
   help: {field: text}, placeholders: {field: text}}}; selects marked data-game-mirror follow
   the game. Without this script the server does the same when the form is sent (the page
   works without it). No build step, no CDN. */
(function () {
  "use strict";
  function pick(select, value, group) {
    var options = select.querySelectorAll("option");
    var fallback = null;
    for (var i = 0; i < options.length; i++) {
      if (options[i].value !== value) { continue; }
      var parent = options[i].parentNode;
      if (parent.tagName === "OPTGROUP" && parent.label === group) {
        options[i].selected = true;
        return;
      }
      fallback = fallback || options[i];
    }
    if (fallback) { fallback.selected = true; }
  }
  function apply(form, info) {
    var name;
    for (name in info.fields || {}) {
      var field = form.elements[name];
      if (!field) { continue; }
      if (field.tagName === "SELECT") { pick(field, info.fields[name], info.name); }
      else { field.value = info.fields[name]; }
    }
    for (name in info.help || {}) {
      var help = document.getElementById("id_" + name + "_helptext");
      if (help) { help.textContent = info.help[name]; }
    }
    for (name in info.placeholders || {}) {
      var input = form.elements[name];
      if (input) { input.setAttribute("placeholder", info.placeholders[name]); }
    }
  }
  var forms = document.querySelectorAll("form[data-game-switch]");
  for (var i = 0; i < forms.length; i++) {
    (function (form) {
      var source = document.getElementById(form.getAttribute("data-game-switch"));
      var game = form.elements.game;
      if (!source || !game) { return; }
      var games = JSON.parse(source.textContent);
      game.addEventListener("change", function () {
        if (games[game.value]) {
          apply(form, games[game.value]);
          if (form.elements.shown_game) { form.elements.shown_game.value = game.value; }
          var mirrors = document.querySelectorAll("select[data-game-mirror]");
          for (var m = 0; m < mirrors.length; m++) { mirrors[m].value = game.value; }
        }
      });
    })(forms[i]);
  }
})();
