"""The game's metadata (CONTRACT §7) as a pydantic model, and the variants' display names.

:data:`GAMEINFO` is what a host shows about Stawvs: names, links, the designer,
the variants with descriptions written for players, flags and categories. Its
JSON (:func:`gameinfo_json`) satisfies Abstract Play's ``gameinfo`` schema.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.variants import SETUP_VARIANTS, VARIANTS

__all__ = [
    "DEFAULT_SETUP_NAME",
    "GAMEINFO",
    "GameInfo",
    "Person",
    "Variant",
    "gameinfo_dict",
    "gameinfo_json",
    "variant_display_names",
    "variant_ids_from_display_names",
]

Flag = Literal["scores", "autopass"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Person(BaseModel):
    """Someone involved in making the game."""

    model_config = _FROZEN
    type: Literal["designer", "publisher", "coder", "other"]
    name: str
    urls: list[str] | None = None


class Variant(BaseModel):
    """A variant as a host lists it: ``uid`` is what a game's ``variants`` hold.

    Variants sharing a ``group`` exclude each other; the uid ``#group`` names
    the group's default (no variant of the group chosen).
    """

    model_config = _FROZEN
    uid: str
    name: str
    description: str
    group: str | None = None


class GameInfo(BaseModel):
    """Abstract Play's game metadata (``APGamesInformation``)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    name: str
    uid: str
    description: str
    urls: list[str]
    bggid: str
    version: str
    date_added: str = Field(alias="dateAdded", pattern=r"^\d{4}-\d{2}-\d{2}$")
    people: list[Person]
    variants: list[Variant]
    playercounts: list[int]
    categories: list[str] = Field(min_length=1)
    flags: list[Flag]

    def variant(self, uid: str) -> Variant:
        """The variant with this ``uid``; ``KeyError`` if there is none."""
        for variant in self.variants:
            if variant.uid == uid:
                return variant
        raise KeyError(uid)


#: The uid upstream presumes for "no variant of the group ``setup``".
DEFAULT_SETUP_UID: Final = "#setup"
DEFAULT_SETUP_NAME: Final = "Default setup (empty corners)"

_DESCRIPTION: Final = (
    "A set-collection game for 2 to 4 players, designed by Russ Williams for "
    "Looney Pyramids. Sixty pyramids are shuffled onto an 8×8 board, leaving four "
    "squares empty. Each player first places caps on pyramids; then, in turn, a "
    "player slides one cap in a straight line (orthogonally or diagonally) over "
    "free pyramids and claims a pyramid in a straight free line from where it "
    "landed. A player with no move passes for the rest of the game. When everyone "
    "has passed, the pyramids under the caps are collected too and collections "
    "score: 7 points for each tree of one colour (small, medium and large), 5 for "
    "each mixed tree and 1 for every other pyramid. The highest score wins."
)

GAMEINFO: Final = GameInfo(
    name="Stawvs",
    uid="stawvs",
    description=_DESCRIPTION,
    urls=[
        "https://looneypyramids.wiki/wiki/Stawvs",
        "https://boardgamegeek.com/boardgame/130579/stawvs",
    ],
    bggid="130579",
    version="20251113",
    date_added="2025-12-12",
    people=[Person(type="designer", name="Russ Williams")],
    variants=[
        Variant(
            uid=DEFAULT_SETUP_UID,
            name=DEFAULT_SETUP_NAME,
            description="The four corner squares start empty.",
            group="setup",
        ),
        Variant(
            uid="hole",
            name="Center hole",
            description="The four centre squares (d4, e4, d5, e5) start empty "
            "instead of the corners.",
            group="setup",
        ),
        Variant(
            uid="random",
            name="Random gaps",
            description="Four squares chosen at random start empty instead of the corners.",
            group="setup",
        ),
        Variant(
            uid="hey",
            name="Simpler captures",
            description="After moving a cap you always claim the pyramid on the "
            "square it just left; there is no other choice.",
        ),
        Variant(
            uid="finalfree",
            name="No final captures",
            description="At the end the pyramids under the caps stay on the board: "
            "they are not collected and do not score.",
        ),
        Variant(
            uid="pieces-2",
            name="2 pieces each",
            description="Each player has two caps instead of three.",
        ),
    ],
    playercounts=[2, 3, 4],
    categories=[
        "goal>score>eog",
        "mechanic>set",
        "board>shape>rect",
        "components>pyramids",
        "other>2+players",
    ],
    flags=["scores", "autopass"],
)

_NAME_OF: Final[dict[str, str]] = {v.uid: v.name for v in GAMEINFO.variants}
_ID_OF: Final[dict[str, str]] = {v.name: v.uid for v in GAMEINFO.variants if v.uid in VARIANTS}


def gameinfo_dict(info: GameInfo = GAMEINFO) -> dict[str, Any]:
    """The metadata as a JSON-ready dict with Abstract Play's key names."""
    return info.model_dump(by_alias=True, exclude_none=True)


def gameinfo_json(info: GameInfo = GAMEINFO) -> str:
    """The metadata as JSON text."""
    return json.dumps(gameinfo_dict(info), ensure_ascii=False)


def variant_display_names(variants: Iterable[str]) -> list[str]:
    """The display names of ``variants`` (ids, in their order), followed by the
    default setup's name when none of them chooses the setup.

    Raises ``KeyError`` for an unknown variant id.
    """
    ids = list(variants)
    unknown = [uid for uid in ids if uid not in VARIANTS]
    if unknown:
        raise KeyError(unknown[0])
    names = [_NAME_OF[uid] for uid in ids]
    if not any(uid in SETUP_VARIANTS for uid in ids):
        names.append(DEFAULT_SETUP_NAME)
    return names


def variant_ids_from_display_names(names: Sequence[str]) -> list[str]:
    """The variant ids for display names (the inverse of :func:`variant_display_names`).

    The default setup's name stands for no variant and is dropped. Raises
    ``KeyError`` for a name that is no Stawvs variant.
    """
    return [_ID_OF[name] for name in names if name != DEFAULT_SETUP_NAME]
