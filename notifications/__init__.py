"""Notifications: e-mails to players and webhook posts when something happens at their event.

Vocabulary: a *kind* is what happened (pairings published, a result to confirm, a dispute
ruled, a player dropped); a *channel* is how it is told (e-mail to one player, or a post to the
event's webhook); a *delivery* is one message on one channel to one recipient, kept as the log
(pending, sending, sent, failed) and sent at most once: its idempotency ``key`` is unique.
"""
