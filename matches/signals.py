"""What the apps above matches listen to (they import this; matches never imports them).

- ``result_changed(match)``: sent inside the transaction that changed a match's result (an
  entry, a confirmation, a correction, a ruling's or a penalty's), after the change is saved
  and audited, so a receiver's writes (series queue a leaderboard refresh through the outbox)
  commit or roll back with the change.
"""

from __future__ import annotations

from django.dispatch import Signal

result_changed = Signal()
