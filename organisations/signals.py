"""What the apps above organisations hear: ``registration_suspended(registration, suspension)``
is sent inside the transaction that suspended the player, once per registration the suspension
took back (after its removal is audited), so a receiver's writes (notifications queues the
player's message) commit or roll back with the suspension."""

from __future__ import annotations

from django.dispatch import Signal

registration_suspended = Signal()
