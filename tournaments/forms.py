from django import forms
from django.utils.translation import gettext_lazy as _

from engine.games import GAMES, game_choices
from tournaments.models import Tournament
from tournaments.services import EDITABLE_FIELDS


def _mode_choices() -> list[tuple[str, str]]:
    return [(m.key, f"{g.name}: {m.label}") for g in GAMES.values() for m in g.modes]


def _format_choices() -> list[tuple[str, str]]:
    return [(f.key, f"{f.label} ({f.mode})") for g in GAMES.values() for f in g.formats()]


def _structure_choices() -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for g in GAMES.values():
        for ms in g.match_structures:
            seen.setdefault(ms.key, ms.label)
    return list(seen.items())


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class EventForm(forms.ModelForm):
    """The organiser's event form; the service validates, this only shapes the widgets."""

    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    mode = forms.ChoiceField(label=_("Game mode"), choices=_mode_choices)
    format_key = forms.ChoiceField(label=_("Format"), choices=_format_choices)
    match_structure = forms.ChoiceField(label=_("Match structure"), choices=_structure_choices)

    class Meta:
        model = Tournament
        fields = EDITABLE_FIELDS
        widgets = {
            "starts_at": DateTimeInput(),
            "registration_opens_at": DateTimeInput(),
            "registration_closes_at": DateTimeInput(),
            "decklist_deadline": DateTimeInput(),
            "description": forms.Textarea(attrs={"rows": 4}),
            "format_params": forms.Textarea(attrs={"rows": 3}),
        }
        help_texts = {
            "format_params": _(
                'Optional JSON overriding the format\'s parameters, e.g. {"dbs_cap": 900}.'
            ),
        }

    # Round settings an older form (or a script) may leave out: they keep their value.
    KEEP_WHEN_BLANK = ("first_round_pairing", "late_entry_policy", "cut_policy")

    # Every official BoBA event is a Playmaker tournament: a new event starts there.
    NEW_EVENT_DEFAULTS = {"game": "boba", "mode": "playmaker", "format_key": "playmaker"}

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        for name in self.KEEP_WHEN_BLANK:
            self.fields[name].required = False
        if self.instance.pk is None:
            for name, value in self.NEW_EVENT_DEFAULTS.items():
                self.fields[name].initial = value

    def clean(self):  # type: ignore[no-untyped-def]
        cleaned = super().clean()
        for name in self.KEEP_WHEN_BLANK:
            if not cleaned.get(name):
                field = Tournament._meta.get_field(name)
                cleaned[name] = getattr(self.instance, name, None) or field.get_default()
        return cleaned

    def _post_clean(self) -> None:
        # Model validation happens in the service (one place for pages and API).
        pass


class WalkInForm(forms.Form):
    name = forms.CharField(label=_("Walk-in name"), max_length=80)
    over_capacity = forms.BooleanField(label=_("Add even if the event is full"), required=False)


class ClaimForm(forms.Form):
    claim_code = forms.CharField(
        label=_("Claim code"),
        max_length=20,
        help_text=_("The code an organiser gave you when they added you as a walk-in."),
    )


class JudgeForm(forms.Form):
    player_id = forms.CharField(label=_("Judge's player id"), max_length=12)
