"""BoBA rules engine."""

# Stored with every ruling that replayed a record: which engine said what.
ENGINE_VERSION = "battledesk-boba-engine/1"
