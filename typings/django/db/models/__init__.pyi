# Choices are enums whose members are their values (str or int), as Django makes them; the rest
# of django.db.models stays untyped (Any).
import enum
from typing import Any

class ChoicesType(enum.EnumMeta):
    @property
    def values(cls) -> list[Any]: ...
    @property
    def labels(cls) -> list[str]: ...
    @property
    def choices(cls) -> list[tuple[Any, str]]: ...
    @property
    def names(cls) -> list[str]: ...

class Choices(enum.Enum, metaclass=ChoicesType):  # type: ignore[misc]
    @property
    def label(self) -> str: ...

class TextChoices(str, Choices):  # type: ignore[misc]
    @property
    def value(self) -> str: ...

class IntegerChoices(int, Choices):  # type: ignore[misc]
    @property
    def value(self) -> int: ...

def __getattr__(name: str) -> Any: ...
