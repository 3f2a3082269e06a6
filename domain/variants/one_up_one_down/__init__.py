"""One Up One Down (一上一下), RULES.md §5."""

from domain.variants.one_up_one_down.rules import OneUpOneDown

__all__ = ["OneUpOneDown"]
