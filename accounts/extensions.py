"""What the apps above accounts plug into: accounts signs people in but does not know what
they came for, and never imports the apps that do.

- ``login_landing``: where a person lands after signing in without a ``next``. An app that
  knows a better place (matches: the player's table in the current round) provides a function
  in its AppConfig.ready() through ``provide_login_landing``; the first that answers wins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LoginLanding = Callable[[Any], str | None]  # the signed-in user -> a URL, or None

_landings: list[LoginLanding] = []


def provide_login_landing(landing: LoginLanding) -> None:
    if landing not in _landings:
        _landings.append(landing)


def login_landing(user: Any) -> str | None:
    """The first provided landing for this user, or None (the site's default)."""
    for landing in _landings:
        url = landing(user)
        if url is not None:
            return url
    return None
