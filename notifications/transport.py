"""What every channel's sender shares (notifications.delivery for webhooks and e-mail,
notifications.push for phones): the error a failed send raises, and the checks that a host
names a public address in plain letters."""

from __future__ import annotations

import ipaddress


def plain_host(host: str) -> bool:
    """A host name that reads as it is: after IDNA encoding only letters, digits, dots and
    hyphens (no bidirectional controls, invisible characters or spaces to disguise it), or an
    IP address."""
    if host.startswith("[") or is_ip(host):
        return True
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        return False
    return bool(ascii_host) and all(c.isascii() and (c.isalnum() or c in ".-") for c in ascii_host)


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def is_private_ip(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return not address.is_global


class DeliveryError(Exception):
    """A message could not be sent; ``permanent`` ones are not tried again."""

    def __init__(
        self, message: str, *, permanent: bool = False, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.permanent = permanent
        self.retry_after = retry_after
