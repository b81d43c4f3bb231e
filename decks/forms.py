"""Forms of the decks pages: they shape widgets and labels; the services validate and decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from decks.models import DeckCheckResult
from engine.games import game_choices, get_game

DECKLIST_HELP = _(
    "One card per line with its count, under the section headings Heroes, Playbook, "
    "Bonus Plays and Hot Dogs, e.g. “1 Action (Fire 110)” or “10 Hot Dog”."
)


def _format_choices() -> list[tuple[str, str]]:
    return [(f.key, f.label) for f in get_game("boba").formats()]


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
            "The community cards.json and plays.json (both at once, or plays.json alone to "
            "update costs and DBS), or a CSV with a header row."
        ),
    )

    def __init__(self, *args: Any, catalogs: Any = (), default_label: str = "", **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [("", default_label or _("My own catalog"))]
        choices += [(c.slug, f"{c.name} ({c.get_kind_display()})") for c in catalogs]
        self.fields["catalog"].choices = choices  # type: ignore[attr-defined]


class DecklistCheckForm(forms.Form):
    format = forms.ChoiceField(label=_("Format"), choices=_format_choices, initial="playmaker")
    catalog = forms.ChoiceField(
        label=_("Card list"),
        required=False,
        help_text=_("The official card list unless you choose another."),
    )
    decklist = forms.CharField(
        label=_("Decklist"),
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "autocomplete": "off"}),
        help_text=DECKLIST_HELP,
        strip=False,
    )

    def __init__(self, *args: Any, catalogs: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("Default (official; demo while there is none)"))]
        choices += [(c.slug, f"{c.name} ({c.get_kind_display()})") for c in catalogs]
        self.fields["catalog"].choices = choices  # type: ignore[attr-defined]


class DecklistSubmitForm(forms.Form):
    decklist = forms.CharField(
        label=_("Decklist"),
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "autocomplete": "off"}),
        help_text=DECKLIST_HELP,
        strip=False,
    )


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
