"""config.stand_ins.csrf_token is Django's get_token for the stored pages, with the mask drawn
in one read of the random source: every token is the reader's secret masked as Django masks
it (Django's own unmasking gives the secret back, Django's checks accept it), a new mask each
time, and the cookie is renewed as get_token renews it."""

from __future__ import annotations

from collections import Counter

from django.middleware.csrf import (
    CSRF_ALLOWED_CHARS,
    CSRF_SECRET_LENGTH,
    CSRF_TOKEN_LENGTH,
    _check_token_format,
    _does_token_match,
    _unmask_cipher_token,
)
from django.test import RequestFactory

from config import stand_ins


def _request_with_secret(secret: str | None) -> object:
    request = RequestFactory().get("/")
    if secret is not None:
        request.META["CSRF_COOKIE"] = secret
    return request


def test_a_token_is_the_readers_secret_masked_as_django_masks_it() -> None:
    secret = "aZ09" * (CSRF_SECRET_LENGTH // 4)
    request = _request_with_secret(secret)
    tokens = {stand_ins.csrf_token(request) for _ in range(50)}  # type: ignore[arg-type]
    assert len(tokens) == 50  # a new mask every time
    for token in tokens:
        assert len(token) == CSRF_TOKEN_LENGTH
        _check_token_format(token)  # raises on a letter outside the alphabet
        assert _unmask_cipher_token(token) == secret
        assert _does_token_match(token, secret)
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True  # type: ignore[attr-defined]


def test_without_a_secret_djangos_own_makes_one_and_sets_its_cookie() -> None:
    request = _request_with_secret(None)
    token = stand_ins.csrf_token(request)  # type: ignore[arg-type]
    secret = request.META["CSRF_COOKIE"]  # type: ignore[attr-defined]
    assert len(secret) == CSRF_SECRET_LENGTH
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True  # type: ignore[attr-defined]
    assert _unmask_cipher_token(token) == secret


def test_every_letter_of_the_mask_is_drawn_from_the_whole_alphabet() -> None:
    seen: Counter[int] = Counter()
    for _ in range(8000):
        mask = stand_ins._csrf_mask()
        assert len(mask) == CSRF_SECRET_LENGTH
        seen.update(mask)
    assert set(seen) == set(range(len(CSRF_ALLOWED_CHARS)))
    # 256,000 draws: each letter about 4,129 times (a standard deviation of 64); an unbiased
    # draw stays within 1.2 of the rarest letter by far, a byte taken modulo 62 does not (the
    # first eight letters a quarter more often)
    assert max(seen.values()) < 1.2 * min(seen.values())
