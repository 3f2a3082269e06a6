"""High Card: a sixth variant that lives in the tests only, added by docs/adding-a-variant.md."""

from tests.conformance.tiny_variant.rules import HighCard

__all__ = ["HighCard"]
