"""Records and replay: the floor above the host contract."""

from __future__ import annotations

from .replay import from_record, parse_starting_position

__all__ = ["from_record", "parse_starting_position"]
