"""Names are one line of visible text: control and invisible characters are refused where a
person types a name, and a name stored before the check is shown neutralised."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from accounts import names
from accounts.forms import ProfileForm, SignUpForm
from accounts.models import User
from accounts.names import display_safe, looks_blank, unsafe_characters
from tests.factories import UserFactory

RLO = "\u202e"


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("Ana María Núñez", []),
        ("李小龙", []),
        ("Zoë O'Brien-Smith", []),
        (f"Eve{RLO}gpj.exe", ["U+202E"]),
        ("Bob\u200bby", ["U+200B"]),
        ("A\u2066B\u2069", ["U+2066", "U+2069"]),
        ("tab\there", ["U+0009"]),
        ("line\u2028break", ["U+2028"]),
        ("\ufeffBOM", ["U+FEFF"]),
        ("\ud800", ["U+D800"]),
    ],
)
def test_unsafe_characters_are_control_format_and_separator_characters(
    text: str, codes: list[str]
) -> None:
    assert unsafe_characters(text) == codes


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("\u3164", ["U+3164"]),  # Hangul filler: a letter that draws nothing
        ("Kim\u3164", ["U+3164"]),
        ("\u2800\u2800", ["U+2800"]),  # blank Braille pattern
        ("\u115f\u1160\uffa0", ["U+115F", "U+1160", "U+FFA0"]),
        ("Ann\ue000", ["U+E000"]),  # private use
        ("Ann\U000f0000", ["U+F0000"]),
        ("Ann\u0378", ["U+0378"]),  # unassigned
        ("\u200dAnn", ["U+200D"]),  # a joiner that joins nothing
        ("Ann\u200d", ["U+200D"]),
        ("A\u200d\u200dB", ["U+200D"]),
        ("Ann\U000e0067", ["U+E0067"]),  # a tag outside a flag
    ],
)
def test_blank_looking_private_use_and_unassigned_characters_are_refused(
    text: str, codes: list[str]
) -> None:
    assert unsafe_characters(text) == codes


@pytest.mark.parametrize(
    "text",
    [
        "Kim \U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: emoji joined by U+200D
        "\U0001f3f3\ufe0f\u200d\U0001f308 Pride",
        "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f Fan",
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian with U+200C
        "\u0928\u092e\u0938\u094d\u0924\u0947",  # Devanagari with its marks
        "Zoe\u0301",
    ],
)
def test_joined_emoji_and_scripts_that_need_joiners_are_names(text: str) -> None:
    assert unsafe_characters(text) == []
    assert not looks_blank(text)


@pytest.mark.parametrize("text", ["   ", "\u0301\u0301", "\u3000", "\u2003\u0301"])
def test_a_name_of_spaces_and_marks_looks_blank(text: str) -> None:
    assert looks_blank(text)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["\u3164\u3164", "\u2800", "\u3000\u0301"])
def test_sign_up_refuses_a_display_name_that_looks_blank(name: str) -> None:
    form = SignUpForm(
        data={
            "username": "ghost",
            "display_name": name,
            "email": "ghost@example.com",
            "password1": "a-long-enough-passphrase",
            "password2": "a-long-enough-passphrase",
        }
    )
    assert not form.is_valid()
    assert "display_name" in form.errors


@pytest.mark.django_db
def test_sign_up_takes_a_display_name_with_a_joined_emoji() -> None:
    form = SignUpForm(
        data={
            "username": "family",
            "display_name": "Kim \U0001f468\u200d\U0001f469\u200d\U0001f467",
            "email": "family@example.com",
            "password1": "a-long-enough-passphrase",
            "password2": "a-long-enough-passphrase",
        }
    )
    assert form.is_valid(), form.errors


def test_display_safe_shows_each_unsafe_character_as_a_replacement_mark() -> None:
    assert display_safe(f"Eve{RLO}gpj.exe") == "Eve\ufffdgpj.exe"
    assert display_safe("Plain Name") == "Plain Name"


@pytest.mark.django_db
def test_sign_up_refuses_a_display_name_with_a_right_to_left_override() -> None:
    form = SignUpForm(
        data={
            "username": "eve",
            "display_name": f"Eve{RLO}evE",
            "email": "eve@example.com",
            "password1": "a-long-enough-passphrase",
            "password2": "a-long-enough-passphrase",
        }
    )
    assert not form.is_valid()
    assert "U+202E" in form.errors["display_name"][0]


@pytest.mark.django_db
def test_the_sign_up_page_saves_no_account_with_an_invisible_character_in_the_name() -> None:
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "zed",
            "display_name": "Z\u200bed",
            "email": "zed@example.com",
            "password1": "a-long-enough-passphrase",
            "password2": "a-long-enough-passphrase",
        },
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="zed").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["display_name", "first_name", "last_name"])
def test_the_profile_refuses_control_characters_in_every_name(field: str) -> None:
    user = UserFactory(display_name="Kim Lee")
    data = {"display_name": "Kim Lee", "first_name": "", "last_name": "", "email": user.email}
    data[field] = f"Kim{RLO}eeL"

    form = ProfileForm(data=data, instance=user)

    assert not form.is_valid()
    assert list(form.errors) == [field]
    user.refresh_from_db()
    assert user.display_name == "Kim Lee"


@pytest.mark.django_db
def test_a_name_stored_before_the_check_is_shown_neutralised() -> None:
    user = UserFactory()
    User.objects.filter(pk=user.pk).update(display_name=f"Eve{RLO}evE")
    user.refresh_from_db()
    assert user.public_name == "Eve\ufffdevE"
    assert str(user) == "Eve\ufffdevE"


@given(st.text(alphabet=st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",))))
def test_the_schema_pattern_matches_exactly_the_names_without_unsafe_characters(
    text: str,
) -> None:
    """The API schema documents a name field with safe_text_pattern: in the basic plane, what
    it matches is what the validator takes (lone surrogates aside, which no UTF-8 text can
    hold; joiners, which the pattern refuses everywhere)."""
    matches = re.fullmatch(names.safe_text_pattern(), text) is not None
    taken = names.unsafe_characters(text) == [] and not names.looks_blank(text)
    if names.JOINERS & set(text):
        assert not matches  # stricter than the validators: joiners are refused everywhere
    else:
        assert matches == taken


def test_the_schema_pattern_refuses_each_kind_of_unsafe_character() -> None:
    pattern = re.compile(names.safe_text_pattern())
    assert pattern.fullmatch("Kai Thompson")
    assert pattern.fullmatch("Zoë 李 🃏")
    for char in ("\x00", "\t", "\x9f", "\u202e", "\u200b", "\u2028", "\ufeff", "\u061c"):
        assert not pattern.fullmatch(f"a{char}b"), repr(char)
