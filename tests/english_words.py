"""Every kind of English sentence and label the engine says, gathered from golden games.

``python tests/english_words.py`` writes ``fixtures/words/english.json.gz``;
tests/test_words.py compares the words the code says now with it, so English
stays byte-identical whatever the translation layer does. The file was first
written by the code as it stood before the words went through catalogues.
Only the English API is used (no ``locale``), so any version can write it.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stawvs_ap import Move, StawvsError, StawvsGame  # noqa: E402
from stawvs_ap.records import from_record  # noqa: E402
from stawvs_ap.tools.svg import board_svg  # noqa: E402
from stawvs_ap.tools.textboard import board_text  # noqa: E402

FIXTURE = ROOT / "fixtures" / "words" / "english.json.gz"
GOLDEN = ROOT / "fixtures" / "golden"
#: Games whose chat logs between them hold every kind of sentence.
GAMES = (
    "2p-default-seed-1",
    "2p-default-seed-3-resign",
    "2p-hey-seed-1",
    "2p-finalfree-seed-1",
    "3p-default-seed-1",
    "4p-random+finalfree+pieces-2-seed-1",
)
INPUTS = ("", "pass", "zz", "a9", "x" * 120, "c3-", "b2-b2", "b2-c3,d4", "a1", "h8-a1,b2", 42, None)


def _clock() -> str:
    return "2025-12-12T00:00:00.000Z"


def _game(name: str) -> StawvsGame:
    record = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))["record"]
    return StawvsGame(from_record(record).serialize(), clock=_clock)


def _svg_words(svg: str) -> list[str]:
    """The texts of the picture that are words: its title and its labels."""
    texts = re.findall(r"<(?:title|text)[^>]*>([^<]*)</(?:title|text)>", svg)
    return [t for t in texts if re.search("[A-Za-z]{2}", t)]


def _refusal(call: Any) -> list[str]:
    try:
        call()
    except StawvsError as exc:
        return [str(exc.code), exc.message]
    return []


def _ply_words(game: StawvsGame) -> dict[str, Any]:
    moves = game.moves()
    probes: list[object] = [*INPUTS, *moves[:2]]
    probes += [str(p) for m in moves[:2] for p in Move.parse(m).prefixes[1:]]
    probes += [Move(70)]
    verdicts = [[repr(p), game.validate_move(p).to_dict()] for p in probes]
    refusals = [[repr(p), _refusal(lambda p=p: game.clone().move(p))] for p in probes]
    clicks = [
        game.handle_click(move, row, col).to_dict()
        for move in ["", *moves[:1], *(str(p) for m in moves[:1] for p in Move.parse(m).prefixes)]
        for row, col in [(0, 0), (3, 3), (5, 2), (7, 7), (8, 0)]
    ]
    previews = []
    for m in moves[:1]:
        for prefix in Move.parse(m).prefixes:
            shown = game.clone().move(str(prefix), partial=True)
            previews.append([str(prefix), shown.results, shown.render().get("areas", [])])
    return {
        "verdicts": verdicts,
        "refusals": refusals,
        "clicks": clicks,
        "previews": previews,
        "labels": [area["label"] for area in game.render().get("areas", [])],
        "sidebar": game.sidebar_scores(),
        "text": board_text(game),
        "text_named": board_text(game, names=["Ann", "Bo"]),
        "svg": _svg_words(board_svg(game)),
    }


def english_words() -> dict[str, Any]:
    """The words, by game and ply (see the module docstring)."""
    out: dict[str, Any] = {
        "description": StawvsGame(2, seed=1).description(),
        "variants": StawvsGame.allvariants(),
        "info": json.loads(StawvsGame.info()),
    }
    for name in GAMES:
        game = _game(name)
        plies = len(game.stack)
        words: dict[str, Any] = {
            "chat": game.chat_log(),
            "chat_named": game.chat_log(["Ann", "Bo", "Cy", "Di"][: game.numplayers]),
            "get_variants": game.get_variants(),
        }
        for ply in sorted({0, 1, plies // 3, plies // 2, plies - 2, plies - 1}):
            words[f"ply {ply}"] = _ply_words(game.clone().load(ply))
        middle = game.clone().load(plies // 2)
        for how in ("resign", "timeout", "draw", "abandoned"):
            ended = middle.clone()
            getattr(ended, how)(*([2] if how in ("resign", "timeout") else []))
            words[how] = [ended.chat_log()[-1], board_text(ended), _refusal(ended.draw)]
        out[name] = words
    return out


def text() -> str:
    return json.dumps(english_words(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def fixture_text() -> str:
    """The words as the fixture holds them."""
    return gzip.decompress(FIXTURE.read_bytes()).decode("utf-8")


if __name__ == "__main__":
    FIXTURE.write_bytes(gzip.compress(text().encode("utf-8"), mtime=0))
    print(f"wrote {FIXTURE.relative_to(ROOT)}")
