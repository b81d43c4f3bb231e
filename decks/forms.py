"""Forms of the decks pages: they shape widgets and labels; the services validate and decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.models import DeckCheckResult
from engine.games import GAMES, default_game, game_choices, get_game

Choices = list[tuple[str, Any]]


def decklist_help(game: str) -> str:
    """How to write a list of the game (its plugin's section headings and an example)."""
    return get_game(game).deck_rules().decklist_help.render(_)


def format_label(key: str) -> str:
    """A format's label, looked up in every game (the key itself when no game has it)."""
    return next((f.label for g in GAMES.values() for f in g.formats() if f.key == key), key)


def switched_format(game: str, fmt: str, shown_game: str = "") -> str | None:
    """The chosen game's default format when the posted one is another game's and was left
    as it was: the form was shown for another game (`shown_game`, the game changed without
    a script), or it is another game's default format. None: keep the posted format."""
    plugin = get_game(game)
    if not fmt or plugin.format(fmt) is not None:
        return None
    others = [g for g in GAMES.values() if g.key != game and g.format(fmt) is not None]
    changed = bool(shown_game) and shown_game != game
    if others and (changed or any(g.default_format == fmt for g in others)):
        return plugin.default_format
    return None


def catalog_label(catalog: Any) -> str:
    """A card list's name, with its kind unless the name already says it."""
    kind = str(catalog.get_kind_display())
    if kind.split(" (")[0].casefold() in catalog.name.casefold():
        return str(catalog.name)
    return f"{catalog.name} ({kind})"


def game_switch_data() -> dict[str, dict[str, Any]]:
    """What the page's optional script (static/js/game-switch.js) swaps in when the game
    changes: each game's default format and decklist help."""
    return {
        g.key: {
            "name": g.name,
            "fields": {"format": g.default_format, "catalog": ""},
            "help": {"decklist": decklist_help(g.key)},
        }
        for g in GAMES.values()
    }


def _format_choices() -> Choices:
    """Every game's formats, grouped by game (the form checks the format fits the game)."""
    return [(g.name, [(f.key, f.label) for f in g.formats()]) for g in GAMES.values()]


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (Django's documented pattern for `multiple`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


class CardImportForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    catalog = forms.ChoiceField(
        label=_("Import into"),
        required=False,
        help_text=_(
            "Shared catalogs (official, demo) change only for site administrators; organisers "
            "import into a catalog of their own and choose it for their events."
        ),
    )
    files = MultipleFileField(
        label=_("Card files"),
        help_text=_(
            "Files in the game's import format: a CSV with the header row the game documents "
            "(see the decklist format documentation), or the community JSON lists where the "
            "game has them."
        ),
    )

    def __init__(self, *args: Any, catalogs: Any = (), default_label: str = "", **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [("", default_label or _("My own catalog"))]
        choices += [(c.slug, catalog_label(c)) for c in catalogs]
        self.fields["catalog"].choices = choices  # type: ignore[attr-defined]


class DecklistCheckForm(forms.Form):
    """Check my deck: a game, one of its formats, optionally a card list of it, the list.

    The formats and card lists of every game are offered, grouped by game (no script needed);
    `clean` refuses a format or card list of another game, naming the field. A format left
    at another game's (the game changed, no script ran) becomes the chosen game's default:
    `switched_from` then names the format replaced."""

    game = forms.ChoiceField(label=_("Game"), choices=game_choices, required=False)
    # The game the form was shown for: a different posted game means only the game changed.
    shown_game = forms.CharField(required=False, widget=forms.HiddenInput)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=_format_choices,
        help_text=_("A format of the game chosen above (formats are grouped by game)."),
    )
    catalog = forms.ChoiceField(
        label=_("Card list"),
        required=False,
        help_text=_("The game's official card list unless you choose another."),
    )
    decklist = forms.CharField(
        label=_("Decklist"),
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "autocomplete": "off"}),
        strip=False,
    )

    def __init__(self, *args: Any, catalogs: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = (self.data.get("game") if self.is_bound else None) or self.initial.get("game")
        game = game if game in GAMES else default_game()
        self.switched_from = ""
        self._catalog_games = {c.slug: c.game for c in catalogs}
        if self.is_bound:
            self._switch_game(game)
        else:
            self.fields["shown_game"].initial = game
            self.fields["format"].initial = self.initial.get("format") or (
                get_game(game).default_format
            )
        choices: Choices = [("", _("Default (official; demo while there is none)"))]
        for g in GAMES.values():
            group = [(c.slug, catalog_label(c)) for c in catalogs if c.game == g.key]
            if group:
                choices.append((g.name, group))
        self.fields["catalog"].choices = choices  # type: ignore[attr-defined]
        self.fields["decklist"].help_text = decklist_help(game)

    def _switch_game(self, game: str) -> None:
        """Only the game changed (no script ran): a format left at another game's becomes
        the game's default (`switched_from`: the one replaced), the old game's card list
        the game's default list. The form is shown again for the game now chosen."""
        shown = str(self.data.get("shown_game") or "")
        fmt = str(self.data.get("format") or "")
        replacement = switched_format(game, fmt, shown)
        self.data = self.data.copy()
        self.data["shown_game"] = game
        if replacement is not None:
            self.data["format"] = replacement
            self.switched_from = fmt
        catalog = self.data.get("catalog")
        if catalog and shown and shown != game and self._catalog_games.get(catalog) != game:
            self.data["catalog"] = ""

    def clean_game(self) -> str:
        """Left out (an older form, a script): the default game."""
        return str(self.cleaned_data.get("game") or default_game())

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        game = cleaned.get("game")
        if game not in GAMES:
            return cleaned
        plugin = get_game(game)
        fmt = cleaned.get("format")
        if fmt and plugin.format(fmt) is None:
            self.add_error(
                "format",
                _("%(format)s is not a format of %(game)s; choose one of its formats.")
                % {"format": format_label(fmt), "game": plugin.name},
            )
        catalog = cleaned.get("catalog")
        if catalog and self._catalog_games.get(catalog) != game:
            self.add_error(
                "catalog",
                _("This card list is not one of %(game)s; choose one of its lists or the default.")
                % {"game": plugin.name},
            )
        return cleaned


class DecklistSubmitForm(forms.Form):
    decklist = forms.CharField(
        label=_("Decklist"),
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "autocomplete": "off"}),
        strip=False,
    )

    def __init__(self, *args: Any, game: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["decklist"].help_text = decklist_help(game or default_game())


class DeckCheckCreateForm(forms.Form):
    round_number = forms.IntegerField(label=_("Round"), min_value=1, max_value=99, initial=1)
    count = forms.IntegerField(label=_("Players to check"), min_value=1, max_value=64, initial=2)
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=_("Optional: the same seed picks the same players. Blank: a random seed."),
    )


class DeckCheckRecordForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Outcome"), choices=DeckCheckResult.Outcome.choices)
    notes = forms.CharField(
        label=_("Notes"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )
    penalty_reference = forms.CharField(label=_("Penalty reference"), required=False, max_length=80)
