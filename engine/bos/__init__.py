"""BOS: the second game (deck rules and the record adjudicator)."""

ENGINE_VERSION = "battledesk-bos-engine/1"
