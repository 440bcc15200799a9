"""The game's metadata (CONTRACT §7) as a pydantic model."""

from __future__ import annotations

from typing import Final

from pydantic import BaseModel, ConfigDict

__all__ = ["GAMEINFO", "GameInfo"]


class GameInfo(BaseModel):
    """Abstract Play's game metadata (``APGamesInformation``)."""

    model_config = ConfigDict(frozen=True)
    name: str
    uid: str
    playercounts: list[int]
    version: str


GAMEINFO: Final = GameInfo(name="Stawvs", uid="stawvs", playercounts=[2, 3, 4], version="20251113")
