"""BOS: the second game (deck rules and the record adjudicator)."""
