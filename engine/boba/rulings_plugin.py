"""BoBA's card rulings as the game plugin exposes them (see `engine.plugin.CardRulings`)."""

from __future__ import annotations

from engine.boba import rulings


class BobaCardRulings:
    max_query: int = rulings.MAX_QUERY

    @staticmethod
    def search(query: str) -> tuple[rulings.Ruling, ...]:
        return rulings.search(query)

    @staticmethod
    def count() -> int:
        return len(rulings.all_rulings())


CARD_RULINGS = BobaCardRulings()
