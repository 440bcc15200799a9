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
from ..errors import ErrorCode, StawvsError, excerpt
from ..i18n import Catalogue, Message, catalogue
from . import messages as m

__all__ = [
    "DEFAULT_SETUP_NAME",
    "GAMEINFO",
    "GameInfo",
    "Person",
    "Variant",
    "gameinfo_dict",
    "gameinfo_in",
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
        """The variant with this ``uid``; :class:`~stawvs_ap.errors.StawvsError`
        (``BAD_VARIANT``) if there is none."""
        for variant in self.variants:
            if variant.uid == uid:
                return variant
        known = ", ".join(variant.uid for variant in self.variants)
        raise StawvsError(
            ErrorCode.BAD_VARIANT, f"{self.name} has no variant {uid!r:.60} (its variants: {known})"
        )


#: The uid upstream presumes for "no variant of the group ``setup``".
DEFAULT_SETUP_UID: Final = "#setup"
#: The default setup's display name as records write it (in English).
DEFAULT_SETUP_NAME: Final = m.DEFAULT_SETUP_NAME.text

#: Each variant's name and description, by uid, in the order hosts list them.
_VARIANT_WORDS: Final[dict[str, tuple[Message, Message]]] = {
    DEFAULT_SETUP_UID: (m.DEFAULT_SETUP_NAME, m.DEFAULT_SETUP_DESCRIPTION),
    "hole": (m.HOLE_NAME, m.HOLE_DESCRIPTION),
    "random": (m.RANDOM_NAME, m.RANDOM_DESCRIPTION),
    "hey": (m.HEY_NAME, m.HEY_DESCRIPTION),
    "finalfree": (m.FINALFREE_NAME, m.FINALFREE_DESCRIPTION),
    "pieces-2": (m.PIECES_2_NAME, m.PIECES_2_DESCRIPTION),
}
_GROUPS: Final = {DEFAULT_SETUP_UID: "setup", "hole": "setup", "random": "setup"}

GAMEINFO: Final = GameInfo(
    name="Stawvs",
    uid="stawvs",
    description=m.DESCRIPTION.text,
    urls=[
        "https://looneypyramids.wiki/wiki/Stawvs",
        "https://boardgamegeek.com/boardgame/130579/stawvs",
    ],
    bggid="130579",
    version="20251113",
    date_added="2025-12-12",
    people=[Person(type="designer", name="Russ Williams")],
    variants=[
        Variant(uid=uid, name=name.text, description=text.text, group=_GROUPS.get(uid))
        for uid, (name, text) in _VARIANT_WORDS.items()
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

_ID_OF: Final[dict[str, str]] = {v.name: v.uid for v in GAMEINFO.variants if v.uid in VARIANTS}


def gameinfo_in(words: Catalogue) -> GameInfo:
    """:data:`GAMEINFO` with its description and the variants' names and
    descriptions in ``words``' language (all else, uids included, unchanged)."""
    if words is catalogue():
        return GAMEINFO
    variants = [
        v.model_copy(
            update={
                "name": words.say(_VARIANT_WORDS[v.uid][0]),
                "description": words.say(_VARIANT_WORDS[v.uid][1]),
            }
        )
        for v in GAMEINFO.variants
    ]
    return GAMEINFO.model_copy(
        update={"description": words.say(m.DESCRIPTION), "variants": variants}
    )


def gameinfo_dict(info: GameInfo = GAMEINFO) -> dict[str, Any]:
    """The metadata as a JSON-ready dict with Abstract Play's key names."""
    return info.model_dump(by_alias=True, exclude_none=True)


def gameinfo_json(info: GameInfo = GAMEINFO) -> str:
    """The metadata as JSON text."""
    return json.dumps(gameinfo_dict(info), ensure_ascii=False)


def variant_display_names(variants: Iterable[str], words: Catalogue | None = None) -> list[str]:
    """The display names of ``variants`` (ids, in their order), followed by the
    default setup's name when none of them chooses the setup: in English, as
    records write them, or in ``words``' language.

    Raises :class:`~stawvs_ap.errors.StawvsError` (``BAD_VARIANT``) for an
    unknown variant id.
    """
    ids = list(variants)
    unknown = [uid for uid in ids if uid not in VARIANTS]
    if unknown:
        known = ", ".join(VARIANTS)
        raise StawvsError(
            ErrorCode.BAD_VARIANT, f"unknown variant {excerpt(unknown[0], 60)} (known: {known})"
        )
    if not any(uid in SETUP_VARIANTS for uid in ids):
        ids.append(DEFAULT_SETUP_UID)
    return [(words or catalogue()).say(_VARIANT_WORDS[uid][0]) for uid in ids]


def variant_ids_from_display_names(names: Sequence[str]) -> list[str]:
    """The variant ids for display names (the inverse of :func:`variant_display_names`).

    The default setup's name stands for no variant and is dropped. Raises
    :class:`~stawvs_ap.errors.StawvsError` (``BAD_VARIANT``) for a name that is
    no Stawvs variant.
    """
    for name in names:
        if name != DEFAULT_SETUP_NAME and name not in _ID_OF:
            raise StawvsError(
                ErrorCode.BAD_VARIANT, f"{excerpt(name)} is not a variant of {GAMEINFO.name}"
            )
    return [_ID_OF[name] for name in names if name != DEFAULT_SETUP_NAME]
