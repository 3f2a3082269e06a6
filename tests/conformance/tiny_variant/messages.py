"""High Card's options. Its command (``PlayCard``) and events are the shared ones."""

from __future__ import annotations

from typing import Annotated

import msgspec


class HighCardOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    hand_size: Annotated[int, msgspec.Meta(ge=1, le=5)] = 3
