"""What the accounts app announces to the apps above it (connected in their AppConfig.ready).

``account_erased(user, erased_by, at)`` is sent inside the erasing transaction, once the
account is anonymised: a receiver's writes commit or roll back with the erasure, and a
receiver that raises undoes it. ``erased_by`` is None when the person erased their own account.
"""

from __future__ import annotations

from django.dispatch import Signal

account_erased = Signal()
