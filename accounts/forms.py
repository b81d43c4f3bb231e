from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.validators import validate_name


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail"), required=True, help_text=_("Used only to reset your password.")
    )
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=80,
        required=False,
        help_text=_("How your name appears in pairings and standings."),
        validators=[validate_name],
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")


class ProfileForm(forms.ModelForm):
    # Names appear on pairings, standings and slips: one line of visible text.
    NAME_FIELDS = ("display_name", "first_name", "last_name")

    class Meta:
        model = User
        fields = (
            "display_name",
            "first_name",
            "last_name",
            "email",
            "profile_public",
            "stream_opt_out",
        )

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        for name in self.NAME_FIELDS:
            self.fields[name].validators.append(validate_name)
