"""Validation verdicts and click results on 191 positions of the reference
games (fixtures/reference/probes.jsonl.gz).

Everywhere we agree with the Abstract Play engine on ``valid``, ``complete``,
``canrender`` and whether ``move()`` takes the input, except where the
reference README ("Where we deliberately differ") says we are stricter or more
lenient; each of those differences has its own test below, asserting *our*
behaviour:

1. a player who has passed may only pass (``MUST_PASS``);
2. case and whitespace are ignored by validation as well as by ``move()``;
3. ``move()`` refuses incomplete moves unless ``partial=True`` (``INCOMPLETE``);
4. trailing text and wrong separators are ``MALFORMED``;
6. messages are our own words, so they are never compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from stawvs_ap import StawvsError, StawvsGame

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import reference_data as ref
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref

POSITIONS = ref.probes()


# --------------------------------------------------------------------------
# Which probes are judged differently by us


def _is_malformed_probe(probe: dict[str, Any]) -> bool:
    return probe["kind"] in ref.MALFORMED_KINDS or probe["input"] in ref.MALFORMED_GARBAGE


def _needs_normalising(probe: dict[str, Any]) -> bool:
    return ref.normalise(probe["input"]) != probe["input"]


def _passed(pos: dict[str, Any]) -> bool:
    return pos["currplayer"] in pos["eliminated"]


def _is_complete_move_by_passed_player(pos: dict[str, Any], move: str) -> bool:
    return _passed(pos) and bool(ref.COMPLETE_PIECE_MOVE_RE.match(move))


def _is_incomplete(probe: dict[str, Any]) -> bool:
    return probe["valid"] is True and probe["complete"] == -1


def _compared_verbatim(pos: dict[str, Any], probe: dict[str, Any]) -> bool:
    """Whether our validate_move() verdict must equal the reference's."""
    return not (
        _is_malformed_probe(probe)
        or _needs_normalising(probe)
        or _is_complete_move_by_passed_player(pos, probe["input"])
    )


@dataclass(frozen=True)
class Expected:
    valid: bool
    complete: int | None
    canrender: bool | None
    move_ok: bool
    code: str | None = None  # asserted when not None (rejections only)


def _expected_for_normalised(pos: dict[str, Any], move: str) -> Expected | None:
    """Our expected verdict for an input that is already normalised, derived
    from the reference verdict for that very string (or from the legal move
    list when the reference did not probe it). None: unknown."""
    assert move == ref.normalise(move)
    if move in ref.MALFORMED_GARBAGE:
        return Expected(False, None, None, False, "MALFORMED")
    if _is_complete_move_by_passed_player(pos, move):
        return Expected(False, None, None, False, "MUST_PASS")
    for probe in pos["probes"]:
        if probe["input"] == move and not _is_malformed_probe(probe):
            if _is_incomplete(probe):
                return Expected(True, -1, probe["canrender"], False)
            return Expected(probe["valid"], probe["complete"], probe["canrender"], probe["move_ok"])
    if move in pos["moves"]:
        return Expected(True, 1, None if move == "pass" else True, True)
    if ref.COMPLETE_PIECE_MOVE_RE.match(move) or (
        pos["mode"] == "place" and ref.SQUARE_RE.match(move)
    ):
        return Expected(False, None, None, False)  # complete but not legal
    return None


# --------------------------------------------------------------------------
# Helpers


def _verdict(result) -> tuple:
    return (result.valid, result.complete, result.canrender)


def _try_move(g: StawvsGame, move: str, **kw) -> StawvsError | None:
    """Play ``move``; return the error if refused (asserting nothing changed)."""
    before = g.serialize()
    try:
        g.move(move, **kw)
    except StawvsError as exc:
        assert isinstance(exc.code, str) and exc.code, f"{move!r}: error without a code"
        assert str(exc), f"{move!r}: error without a message"
        assert g.serialize() == before, f"rejected move {move!r} changed the state"
        return exc
    return None


class Fresh:
    """Hands out a game for the position, re-created only after a move took."""

    def __init__(self, state: str):
        self.state = state
        self._game: StawvsGame | None = None

    def game(self) -> StawvsGame:
        if self._game is None:
            self._game = StawvsGame(self.state)
        return self._game

    def used(self) -> None:
        self._game = None


def _positions_with(predicate) -> list[dict[str, Any]]:
    return [pos for pos in POSITIONS if any(predicate(pos, p) for p in pos["probes"])]


# --------------------------------------------------------------------------
# Agreement with the reference


def test_there_are_191_probe_positions():
    assert len(POSITIONS) == 191


@pytest.mark.parametrize("pos", POSITIONS, ids=ref.probe_id)
def test_position_matches_reference(pos):
    g = StawvsGame(pos["state"])
    assert sorted(g.moves()) == pos["moves"]
    assert g.currplayer == pos["currplayer"]
    assert g.mode == pos["mode"]
    assert list(g.eliminated) == pos["eliminated"]
    assert g.gameover is False


@pytest.mark.parametrize("pos", POSITIONS, ids=ref.probe_id)
def test_probe_verdicts_match_reference(pos):
    fresh = Fresh(pos["state"])
    problems = []
    for probe in pos["probes"]:
        if not _compared_verbatim(pos, probe):
            continue  # see the tests of deliberate differences below
        move = probe["input"]
        g = fresh.game()
        got = g.validate_move(move)
        want = (probe["valid"], probe["complete"], probe["canrender"])
        if _verdict(got) != want:
            problems.append(f"{probe['kind']} {move!r}: validate_move {_verdict(got)} != {want}")
            continue
        assert isinstance(got.message, str) and got.message, f"{move!r}: no message"
        if got.valid:
            assert got.code is None, f"{move!r}: valid but code {got.code!r}"
        else:
            assert isinstance(got.code, str) and got.code, f"{move!r}: rejected without code"

        if _is_incomplete(probe):
            continue  # the reference plays incomplete moves; see test_we_refuse_incomplete...
        err = _try_move(g, move)
        if err is None:
            fresh.used()
        if (err is None) != probe["move_ok"]:
            problems.append(
                f"{probe['kind']} {move!r}: move() {'took it' if err is None else 'refused it'}, "
                f"reference move_ok={probe['move_ok']}"
            )
        elif err is not None and not got.valid and err.code != got.code:
            problems.append(f"{move!r}: move() code {err.code} != validate_move code {got.code}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "pos", [p for p in POSITIONS if p.get("clicks")], ids=ref.probe_id
)
def test_click_sequences_match_reference(pos):
    g = StawvsGame(pos["state"])
    before = g.serialize()
    problems = []
    for n, seq in enumerate(pos["clicks"]):
        for i, step in enumerate(seq["steps"]):
            where = f"sequence {n} ({seq['kind']}) step {i}: {step['move_in']!r} + {step['cell']}"
            want = step["result"]
            got = g.handle_click(step["move_in"], step["row"], step["col"])
            if (
                _passed(pos)
                and want["valid"]
                and ref.COMPLETE_PIECE_MOVE_RE.match(want["move"])
            ):
                # deliberate difference 1: no complete piece move after passing
                if got.valid or got.code != "MUST_PASS":
                    problems.append(f"{where}: expected MUST_PASS, got {got.valid} {got.code}")
                continue
            if (got.move, got.valid) != (want["move"], want["valid"]):
                problems.append(
                    f"{where}: (move, valid) {(got.move, got.valid)} != {(want['move'], want['valid'])}"
                )
                continue
            if want["valid"]:
                if (got.complete, got.canrender) != (want["complete"], want["canrender"]):
                    problems.append(
                        f"{where}: (complete, canrender) {(got.complete, got.canrender)} != "
                        f"{(want['complete'], want['canrender'])}"
                    )
                if got.code is not None:
                    problems.append(f"{where}: valid click with code {got.code!r}")
            else:
                if not (isinstance(got.code, str) and got.code):
                    problems.append(f"{where}: refused click without a code")
                elif ref.COMPLETE_PIECE_MOVE_RE.match(step["move_in"]) and got.code != "EXTRA_CLAIMS":
                    problems.append(f"{where}: click after a complete move: code {got.code}")
    assert g.serialize() == before, "handle_click changed the game"
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------
# Deliberate differences: what we do instead


def test_the_reference_really_behaves_as_the_readme_says():
    """The recorded verdicts show the reference behaviour we deliberately do
    not copy (so the tests below are about real differences)."""
    probes = [(pos, p) for pos in POSITIONS for p in pos["probes"]]

    def of_kind(*kinds):
        found = [(pos, p) for pos, p in probes if p["kind"] in kinds]
        assert found, kinds
        return found

    # 1. a player who has passed may still make a piece move
    for _, p in of_kind("pseudo_legal_while_eliminated"):
        assert p["valid"] and p["complete"] == 1 and p["move_ok"]
    # 2. validateMove is case/space sensitive, move() is not
    for pos, p in of_kind("legal_uppercase", "legal_padded"):
        assert not p["valid"] and p["move_ok"]
    # 3. move() plays incomplete moves
    for _, p in of_kind("empty", "own_partial", "own_partial_dest"):
        assert p["move_ok"] == p["valid"]
    # 4. trailing text is ignored
    for _, p in of_kind(*ref.MALFORMED_KINDS):
        assert p["valid"] and p["move_ok"]


@pytest.mark.parametrize(
    "pos",
    _positions_with(
        lambda pos, p: _is_complete_move_by_passed_player(pos, p["input"])
        and not _is_malformed_probe(p)
        and not _needs_normalising(p)
    ),
    ids=ref.probe_id,
)
def test_we_refuse_complete_moves_from_a_player_who_passed(pos):
    """Difference 1: the reference lets a player who has passed still make a
    piece move; we only let them pass (MUST_PASS)."""
    fresh = Fresh(pos["state"])
    for probe in pos["probes"]:
        move = probe["input"]
        if not _is_complete_move_by_passed_player(pos, move) or _needs_normalising(probe):
            continue
        got = fresh.game().validate_move(move)
        assert (got.valid, got.code) == (False, "MUST_PASS"), f"{probe['kind']} {move!r}"
        assert got.complete is None and got.canrender is None
        err = _try_move(fresh.game(), move)
        assert err is not None and err.code == "MUST_PASS", f"move({move!r})"
    # Passing remains legal, and it is all they may do.
    g = fresh.game()
    assert g.moves() == ["pass"]
    assert g.validate_move("pass").valid is True


@pytest.mark.parametrize(
    "pos", _positions_with(lambda pos, p: _needs_normalising(p)), ids=ref.probe_id
)
def test_we_ignore_case_and_whitespace_when_validating(pos):
    """Difference 2: the reference's validateMove is case- and space-sensitive
    while its move() is not; we read e.g. 'D3 - E2 , D3', ' pass' or 'PASS'
    exactly as their normalised form, in both."""
    fresh = Fresh(pos["state"])
    problems = []
    for probe in pos["probes"]:
        if not _needs_normalising(probe):
            continue
        raw, norm = probe["input"], ref.normalise(probe["input"])
        g = fresh.game()
        got_raw = g.validate_move(raw)
        got_norm = g.validate_move(norm)
        if (_verdict(got_raw), got_raw.code) != (_verdict(got_norm), got_norm.code):
            problems.append(
                f"{probe['kind']} {raw!r}: {_verdict(got_raw)}/{got_raw.code} differs from "
                f"{norm!r}: {_verdict(got_norm)}/{got_norm.code}"
            )
            continue
        want = _expected_for_normalised(pos, norm)
        if want is not None:
            if _verdict(got_raw) != (want.valid, want.complete, want.canrender):
                problems.append(
                    f"{probe['kind']} {raw!r}: {_verdict(got_raw)} but {norm!r} should be "
                    f"{(want.valid, want.complete, want.canrender)}"
                )
                continue
            if want.code is not None and got_raw.code != want.code:
                problems.append(f"{probe['kind']} {raw!r}: code {got_raw.code} != {want.code}")
        err = _try_move(g, raw)
        if err is None:
            fresh.used()
            assert got_raw.valid and got_raw.complete == 1, f"move({raw!r}) took an invalid move"
            assert g.lastmove == norm, f"move({raw!r}) recorded lastmove {g.lastmove!r}"
            if probe["move_ok"] and "move_after" in probe:
                after = probe["move_after"]
                assert ref.as_json(g.results) == after["results"], f"move({raw!r}) results"
                assert g.currplayer == after["currplayer"], f"move({raw!r}) currplayer"
                assert list(g.eliminated) == after["eliminated"], f"move({raw!r}) eliminated"
        elif want is not None and want.move_ok:
            problems.append(f"{probe['kind']} move({raw!r}) refused ({err.code}) but {norm!r} is legal")
        elif not got_raw.valid and err.code != got_raw.code:
            problems.append(f"move({raw!r}) code {err.code} != validate_move code {got_raw.code}")
        elif got_raw.valid and got_raw.complete == -1 and err.code != "INCOMPLETE":
            problems.append(f"move({raw!r}) of an incomplete move: code {err.code}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "pos",
    _positions_with(
        lambda pos, p: _is_incomplete(p) and _compared_verbatim(pos, p)
    ),
    ids=ref.probe_id,
)
def test_we_refuse_incomplete_moves_without_partial(pos):
    """Difference 3: the reference's move() plays '', 'c3' or 'c3-d4' and ends
    the turn; ours refuses them (INCOMPLETE) unless partial=True, which only
    previews them."""
    g = StawvsGame(pos["state"])
    before = g.serialize()
    for probe in pos["probes"]:
        if not (_is_incomplete(probe) and _compared_verbatim(pos, probe)):
            continue
        move = probe["input"]
        assert g.validate_move(move).complete == -1, move
        err = _try_move(g, move)
        assert err is not None and err.code == "INCOMPLETE", f"move({move!r})"
        if probe["canrender"]:  # a preview the host may show
            g.move(move, partial=True)
            assert g.serialize() == before, f"move({move!r}, partial=True) changed the state"
            assert g.currplayer == pos["currplayer"]
            g = StawvsGame(pos["state"])


@pytest.mark.parametrize(
    "pos", _positions_with(lambda pos, p: _is_malformed_probe(p)), ids=ref.probe_id
)
def test_we_reject_trailing_text_and_wrong_separators_as_malformed(pos):
    """Difference 4: the reference ignores what follows a complete move
    ('c3-d4,e5,f6', 'c3-d4,e5,', 'a1-b2,') and reads 'c3-d4-e5' as 'c3-d4'
    (or 'c3-d4,,e5' as an incomplete claim); we call all of these MALFORMED."""
    g = StawvsGame(pos["state"])
    for probe in pos["probes"]:
        if not _is_malformed_probe(probe):
            continue
        move = probe["input"]
        got = g.validate_move(move)
        assert (got.valid, got.code) == (False, "MALFORMED"), f"{probe['kind']} {move!r}"
        assert got.complete is None and got.canrender is None
        err = _try_move(g, move)
        assert err is not None and err.code == "MALFORMED", f"move({move!r})"
