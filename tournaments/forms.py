import json
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.games import GAMES, FormatChoice, GamePlugin, default_game, game_choices, get_game
from tournaments import stages as stage_rules
from tournaments import tiebreakers
from tournaments.models import Tournament, default_clock_mode
from tournaments.roster_csv import MAX_ROSTER_BYTES
from tournaments.services import EDITABLE_FIELDS

# Each game's modes, formats and match structures are offered grouped by game (an <optgroup>
# per game: no script needed); the service refuses a choice that is not the game's, naming
# the field (Tournament.clean).
GroupedChoices = list[tuple[str, list[tuple[str, str]]]]


def _mode_choices() -> GroupedChoices:
    return [(g.name, [(m.key, m.label) for m in g.modes]) for g in GAMES.values()]


def _format_label(game: GamePlugin, fmt: FormatChoice) -> str:
    """A format's label, with its mode when the two say different things."""
    mode = game.mode(fmt.mode)
    mode_label = mode.label if mode is not None else fmt.mode
    if mode_label.casefold() == fmt.label.casefold():
        return fmt.label
    return f"{fmt.label} ({mode_label})"


def _format_choices() -> GroupedChoices:
    return [(g.name, [(f.key, _format_label(g, f)) for f in g.formats()]) for g in GAMES.values()]


def _structure_choices() -> GroupedChoices:
    return [(g.name, [(s.key, s.label) for s in g.match_structures]) for g in GAMES.values()]


def new_event_defaults(game: str | None = None) -> dict[str, str]:
    """What a new event of a game starts with: its plugin's default mode, format and match
    structure (the default game's when none is named)."""
    plugin = get_game(game if game in GAMES else default_game())
    return {
        "game": plugin.key,
        "mode": plugin.default_mode,
        "format_key": plugin.default_format,
        "match_structure": plugin.default_match_structure,
        "clock_mode": default_clock_mode(plugin.key),
    }


# The fields a game decides: switching the game replaces the ones left at the old game's.
GAME_FIELDS = ("mode", "format_key", "match_structure", "clock_mode")


def format_params_example(game: str) -> str:
    """An example of custom format parameters from the game's default format: its first
    number parameter, as JSON ("" when it has none)."""
    plugin = get_game(game)
    params = plugin.deck_rules().format_parameters().get(plugin.default_format, {})
    for key, value in params.items():
        if isinstance(value, int) and not isinstance(value, bool):
            return json.dumps({key: value})
    return ""


def format_params_help(game: str) -> str:
    example = format_params_example(game)
    text = _(
        "Optional JSON overriding the chosen format's parameters (a game's are listed by "
        "/api/formats/?game=…)."
    )
    return f"{text} {_('For example: %(json)s') % {'json': example}}" if example else str(text)


def game_switch_data() -> dict[str, dict[str, Any]]:
    """What the event form's optional script (static/js/game-switch.js) fills in when the
    game changes: the game's defaults, its clock recommendation, its parameter example."""
    data: dict[str, dict[str, Any]] = {}
    for g in GAMES.values():
        defaults = new_event_defaults(g.key)
        data[g.key] = {
            "name": g.name,
            "fields": {name: defaults[name] for name in GAME_FIELDS},
            "help": {"format_params": format_params_help(g.key)},
            "placeholders": {
                "clock_minutes": str(g.clock.minutes_per_player) if g.clock else "",
                "clock_delay_seconds": str(g.clock.delay_seconds) if g.clock else "",
            },
        }
    return data


class GameGroupedSelect(forms.Select):
    """A select whose options are grouped by game: a value offered by several games (best of
    three) is selected in the group of the form's game (Django selects the first match)."""

    game_name: str = ""

    def optgroups(self, name, value, attrs=None):  # type: ignore[no-untyped-def]
        groups = super().optgroups(name, value, attrs)
        chosen = {str(v) for v in value}
        in_own = any(
            g == self.game_name and str(o["value"]) in chosen
            for g, options, _i in groups
            for o in options
        )
        if not self.game_name or not in_own:
            return groups
        for group_name, options, _index in groups:
            for option in options:
                selected = group_name == self.game_name and str(option["value"]) in chosen
                option["selected"] = selected
                if selected:
                    option["attrs"]["selected"] = True
                else:
                    option["attrs"].pop("selected", None)
        return groups


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class TiebreakerOrderField(forms.CharField):
    """An event's tiebreaker order typed as keys separated by commas ("omw, gw, ogw")."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(key) for key in value)
        if isinstance(value, str) and value.startswith("["):
            try:  # the model field's own text (JSON), shown again as keys
                keys = json.loads(value)
            except ValueError:
                return value
            return ", ".join(str(key) for key in keys) if isinstance(keys, list) else value
        return value

    def to_python(self, value: Any) -> list[str]:
        text = super().to_python(value)
        return [key.strip() for key in text.replace(";", ",").split(",") if key.strip()]


def tiebreaker_order_help(game: str | None) -> str:
    """The keys an event of ``game`` may order (each with its label) and the game's order."""
    plugin = GAMES.get(game or "")
    if plugin is None:
        return str(_("Tiebreaker keys separated by commas, in order. Blank: the game's order."))
    available = ", ".join(
        f"{entry.key} ({entry.label.render(gettext)})" for entry in tiebreakers.for_game(plugin.key)
    )
    return _(
        "Tiebreaker keys separated by commas, in order, after match points. Blank: the "
        "game's order (%(default)s). %(game)s offers: %(available)s."
    ) % {"default": ", ".join(plugin.tiebreakers), "game": plugin.name, "available": available}


STAGE_PRESETS = [
    ("", _("None: keep the stage list below")),
    ("swiss_top_8", _("Swiss + top 8")),
    ("day_two", _("Day 1, day 2 (18 points or more, records carried), top 8")),
    ("flights", _("Two flights (the registered players in halves), day 2, top 8")),
    ("round_robin_top_8", _("Round robin + top 8")),
    ("double_elimination", _("Double elimination")),
]


def preset_stages(preset: str, registered: list[int]) -> list[dict[str, Any]]:
    """The stage list of a preset (tournaments.stages); flights split ``registered`` in two."""
    if preset == "flights":
        half = registered[len(registered) // 2 :]
        if len(half) < 2 or len(registered) - len(half) < 2:
            raise forms.ValidationError(
                _("Flights split the registered players: register at least four first.")
            )
        return stage_rules.stages_to_json(stage_rules.preset_flights([half]))
    return stage_rules.stages_to_json(stage_rules.PRESETS[preset]())


def current_stages(event: Tournament | None) -> list[dict[str, Any]] | None:
    if event is None or event.pk is None:
        return None
    rows = event.stages.order_by("number")
    return [row.to_rule().to_json() for row in rows] or None


class EventForm(forms.ModelForm):
    """The organiser's event form; the service validates, this only shapes the widgets."""

    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    mode = forms.ChoiceField(
        label=_("Game mode"),
        choices=_mode_choices,
        widget=GameGroupedSelect,
        help_text=_("One of the chosen game's modes (grouped by game)."),
    )
    format_key = forms.ChoiceField(
        label=_("Format"),
        choices=_format_choices,
        widget=GameGroupedSelect,
        help_text=_("One of the chosen game's formats (grouped by game)."),
    )
    match_structure = forms.ChoiceField(
        label=_("Match structure"),
        choices=_structure_choices,
        widget=GameGroupedSelect,
        help_text=_("Best of one or three, as the chosen game allows (grouped by game)."),
    )
    tiebreaker_order = TiebreakerOrderField(label=_("Tiebreakers"), required=False)
    stage_preset = forms.ChoiceField(
        label=_("Stages preset"),
        choices=STAGE_PRESETS,
        required=False,
        help_text=_("Saving with a preset fills the stage list below with it."),
    )
    stages = forms.CharField(
        label=_("Stages"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "The stages in order, as JSON (name, kind, rounds, match_structure, round_minutes, "
            "entry, carry). Blank: a Swiss, then the top cut. Fixed once the event runs."
        ),
    )

    class Meta:
        model = Tournament
        # A team event is set through the API (docs/teams.md): its settings are JSON.
        fields = tuple(f for f in EDITABLE_FIELDS if f not in ("team", "team_rules"))
        widgets = {
            "starts_at": DateTimeInput(),
            "registration_opens_at": DateTimeInput(),
            "registration_closes_at": DateTimeInput(),
            "decklist_deadline": DateTimeInput(),
            "lottery_deadline": DateTimeInput(),
            "description": forms.Textarea(attrs={"rows": 4}),
            "format_params": forms.Textarea(attrs={"rows": 3}),
        }

    # Round settings an older form (or a script) may leave out: they keep their value.
    KEEP_WHEN_BLANK = (
        "first_round_pairing",
        "late_entry_policy",
        "cut_policy",
        "clock_mode",
        "registration_mode",
    )

    # The game the form was shown for: a different posted game means the game was changed
    # (without the page's script, which fills in the new game's defaults itself).
    shown_game = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, game=None, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        for name in self.KEEP_WHEN_BLANK:
            self.fields[name].required = False
        if self.instance.pk is None:
            # A new event starts on its game's defaults (the plugin's; `game` from ?game=).
            for name, value in new_event_defaults(game).items():
                self.fields[name].initial = value
        current = current_stages(self.instance)
        if current is not None:
            self.fields["stages"].initial = json.dumps(current, indent=1)
        self.switched: list[str] = []
        if self.is_bound:
            self._switch_game()
        shown = self.data.get("game") if self.is_bound else None
        shown = shown or (self.instance.game if self.instance.pk else self.fields["game"].initial)
        self.fields["shown_game"].initial = shown
        self._clock_recommendation(shown if shown in GAMES else game or self.instance.game)
        self.fields["tiebreaker_order"].help_text = tiebreaker_order_help(
            shown if shown in GAMES else game or self.instance.game
        )
        if shown in GAMES:
            for name in ("mode", "format_key", "match_structure"):
                self.fields[name].widget.game_name = GAMES[shown].name
            self.fields["format_params"].help_text = format_params_help(shown)

    def _switch_game(self) -> None:
        """Only the game changed (the form was shown for another game, and its mode or format
        is not the new game's): the new game's defaults replace what was left at the old
        game's, and the form is shown again to check (`switched`: the fields replaced)."""
        posted, shown = self.data.get("game"), self.data.get("shown_game")
        if posted not in GAMES or shown not in GAMES or posted == shown:
            return
        plugin = GAMES[posted]
        if plugin.mode(self.data.get("mode", "")) is not None and (
            plugin.format(self.data.get("format_key", "")) is not None
        ):
            return
        new, old = new_event_defaults(posted), new_event_defaults(shown)
        checks = {
            "mode": plugin.mode,
            "format_key": plugin.format,
            "match_structure": plugin.match_structure,
        }
        data = self.data.copy()
        for name in GAME_FIELDS:
            value = data.get(name, "")
            check = checks.get(name)
            left = value == old[name] or (check is not None and check(value) is None)
            if left and value != new[name]:
                data[name] = new[name]
                self.switched.append(name)
        data["shown_game"] = posted
        self.data = data

    def _clock_recommendation(self, game: str | None) -> None:
        """The match clock's fields show the game's recommended clock as their placeholder,
        and every game's recommendation in their help (a blank field takes it)."""
        if "clock_minutes" not in self.fields:
            return
        plugin = GAMES.get(game or "")
        if plugin is not None and plugin.clock is not None:
            self.fields["clock_minutes"].widget.attrs["placeholder"] = str(
                plugin.clock.minutes_per_player
            )
            self.fields["clock_delay_seconds"].widget.attrs["placeholder"] = str(
                plugin.clock.delay_seconds
            )
        recommended = "; ".join(
            _("%(game)s: %(m)d minutes, a %(s)d-second delay")
            % {"game": g.name, "m": g.clock.minutes_per_player, "s": g.clock.delay_seconds}
            for g in GAMES.values()
            if g.clock is not None
        )
        self.fields["clock_minutes"].help_text = _(
            "Blank: the game's recommendation (%(list)s). A game without one needs minutes "
            "when the clock is on."
        ) % {"list": recommended or _("none")}
        self.fields["clock_delay_seconds"].help_text = _(
            "The first seconds of each turn that do not count. Blank: the game's "
            "recommendation (0 when it has none)."
        )

    def clean(self):  # type: ignore[no-untyped-def]
        cleaned = super().clean()
        if self.switched:
            plugin = get_game(self.data["game"])
            self.add_error(
                None,
                _(
                    "The game is now %(game)s: its %(fields)s are filled in below. Check them "
                    "and save again."
                )
                % {
                    "game": plugin.name,
                    "fields": ", ".join(str(self.fields[n].label).lower() for n in self.switched),
                },
            )
        self._check_game_choices(cleaned)
        for name in self.KEEP_WHEN_BLANK:
            if not cleaned.get(name):
                if name == "clock_mode" and self.instance.pk is None:
                    cleaned[name] = default_clock_mode(cleaned.get("game") or default_game())
                    continue
                field = Tournament._meta.get_field(name)
                cleaned[name] = getattr(self.instance, name, None) or field.get_default()
        cleaned["stages"] = self._chosen_stages(cleaned)
        # Blank is a choice here (the game's order); a form without the field keeps the order.
        if "tiebreaker_order" not in self.data:
            cleaned["tiebreaker_order"] = list(self.instance.tiebreaker_order or [])
        return cleaned

    def _chosen_stages(self, cleaned: dict[str, Any]) -> list[Any] | None:
        """The stage list to save: a preset's, else the text when it changed; None keeps the
        stages (the service then follows the top cut of an event without a list of its own)."""
        current = current_stages(self.instance)
        preset = cleaned.get("stage_preset") or ""
        if preset:
            registered: list[int] = []
            if self.instance.pk is not None:
                registered = list(
                    self.instance.registrations.filter(status="registered")
                    .order_by("pk")
                    .values_list("pk", flat=True)
                )
            try:
                chosen = preset_stages(preset, registered)
            except forms.ValidationError as exc:
                self.add_error("stage_preset", exc)
                return None
            return None if chosen == current else chosen
        text = (cleaned.get("stages") or "").strip()
        if not text:
            return None
        try:
            chosen = json.loads(text)
        except ValueError:
            self.add_error("stages", _("Not JSON: a list of stages, [{...}, ...]."))
            return None
        return None if chosen == current else chosen

    def _check_game_choices(self, cleaned: dict[str, Any]) -> None:
        """Every mode, format or match structure of another game than the chosen one is
        flagged at once, by its label (the service names only the first)."""
        game = cleaned.get("game")
        if game not in GAMES:
            return
        plugin = get_game(game)
        checks = (
            ("mode", plugin.mode, lambda g: g.modes),
            ("format_key", plugin.format, lambda g: g.formats()),
            ("match_structure", plugin.match_structure, lambda g: g.match_structures),
        )
        for name, check, options in checks:
            value = cleaned.get(name)
            if not value or check(value) is not None:
                continue
            label = next(
                (o.label for g in GAMES.values() for o in options(g) if o.key == value), value
            )
            self.add_error(
                name,
                _("%(choice)s is not a %(field)s of %(game)s; choose one of its own.")
                % {
                    "choice": label,
                    "field": str(self.fields[name].label).lower(),
                    "game": plugin.name,
                },
            )

    def _post_clean(self) -> None:
        # Model validation happens in the service (one place for pages and API).
        pass


class WalkInForm(forms.Form):
    name = forms.CharField(label=_("Walk-in name"), max_length=80)
    over_capacity = forms.BooleanField(label=_("Add even if the event is full"), required=False)


class RosterImportForm(forms.Form):
    """A roster CSV pasted or uploaded (the bulk player import page)."""

    csv = forms.CharField(
        label=_("Paste the roster"),
        required=False,
        strip=False,
        max_length=MAX_ROSTER_BYTES,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "A header row, then one player a row: name, email, player_id and, if you have "
            "them, decklist. A player is matched to their account by e-mail or player id; "
            "anyone else is added as a walk-in."
        ),
    )
    file = forms.FileField(label=_("Or upload a CSV file"), required=False)
    over_capacity = forms.BooleanField(
        label=_("Add them even if the event is full"), required=False
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data.get("file")
        # Refused by its size before anyone reads it.
        if upload is not None and (upload.size or 0) > MAX_ROSTER_BYTES:
            raise forms.ValidationError(
                _("At most %(kb)d KB; split the roster.") % {"kb": MAX_ROSTER_BYTES // 1024}
            )
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and bool(data.get("csv", "").strip()) == bool(data.get("file")):
            raise forms.ValidationError(_("Paste the roster or upload a file (one of them)."))
        return data

    def roster(self) -> str | bytes:
        """The pasted text, or the uploaded file's text (its bytes when it is not UTF-8: the
        import then names that problem)."""
        upload = self.cleaned_data.get("file")
        if upload is None:
            return str(self.cleaned_data["csv"])
        data: bytes = upload.read()
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return data


class ClaimForm(forms.Form):
    claim_code = forms.CharField(
        label=_("Claim code"),
        max_length=20,
        help_text=_("The code an organiser gave you when they added you as a walk-in."),
    )


class JudgeForm(forms.Form):
    player_id = forms.CharField(label=_("Judge's player id"), max_length=12)


class TeamForm(forms.Form):
    """A team: its name, members (ticked from the players without a team, or added by their
    player ids) and Head Coach. The service checks the roster (docs/teams.md)."""

    name = forms.CharField(label=_("Team name"), max_length=80)
    members = forms.TypedMultipleChoiceField(
        label=_("Members"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Registered players of this event who are not in a team yet."),
    )
    player_ids = forms.CharField(
        label=_("Add players by player id"),
        required=False,
        max_length=400,
        help_text=_("Each player's id from their account page, separated by spaces or commas."),
    )
    head_coach = forms.TypedChoiceField(
        label=_("Head Coach"), coerce=int, required=False, empty_value=None
    )

    def __init__(
        self, *args: Any, choices: list[tuple[int, str]], head_coach: bool, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["members"].choices = choices  # type: ignore[attr-defined]
        if head_coach:
            self.fields["head_coach"].choices = [("", _("Choose a member")), *choices]  # type: ignore[attr-defined]
            self.fields["head_coach"].help_text = _(
                "One of the members: plays the deciding game of a tied team match."
            )
        else:
            del self.fields["head_coach"]
