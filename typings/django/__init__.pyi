# A partial stub (no django-stubs here): only what mypy --strict needs to type the services.
from typing import Any

def __getattr__(name: str) -> Any: ...
