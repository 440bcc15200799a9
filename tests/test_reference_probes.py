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

from collections.abc import Iterator
from contextlib import contextmanager
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


class Workbench:
    """A game re-created from a probe position, on which many moves are tried.

    A refused move must change nothing; a move that is taken is undone again
    (undo() restores the previous entry completely, CONTRACT §3), so one object
    serves a position for all the tests of this module, which keeps them fast.
    Use it through ``workbench(pos)``, which checks on leaving that
    serialize() is byte for byte what it was (naming the culprit when not) and
    drops the object if anything failed.
    """

    def __init__(self, state: str):
        self.state = state
        self.game = StawvsGame(state)
        self.initial = self.game.serialize()
        self.tried: list[str] = []

    def attempt(self, move: str, after=None) -> StawvsError | None:
        """Try ``move()``; return the error, or None when it was taken (then
        ``after(game)`` may inspect the game before the move is undone)."""
        self.tried.append(move)
        try:
            self.game.move(move)
        except StawvsError as exc:
            assert isinstance(exc.code, str) and exc.code, f"move({move!r}): error without code"
            assert str(exc), f"move({move!r}): error without a message"
            return exc
        try:
            if after is not None:
                after(self.game)
        finally:
            self.game.undo()
        return None

    def check_unchanged(self) -> None:
        if self.game.serialize() == self.initial:
            return
        g = StawvsGame(self.state)
        for move in self.tried:
            before = g.serialize()
            try:
                g.move(move)
            except StawvsError:
                assert g.serialize() == before, f"rejected move {move!r} changed the state"
                continue
            g.undo()
            assert g.serialize() == before, f"move({move!r}) then undo() did not restore the state"
        pytest.fail("the state changed, though no single move() explains it")


_BENCHES: dict[int, Workbench] = {}


@contextmanager
def workbench(pos: dict[str, Any]) -> Iterator[Workbench]:
    bench = _BENCHES.pop(pos["pos"], None) or Workbench(pos["state"])
    bench.tried = []
    yield bench  # on any failure the bench is not put back
    bench.check_unchanged()
    _BENCHES[pos["pos"]] = bench


def _positions_with(predicate) -> list[dict[str, Any]]:
    return [pos for pos in POSITIONS if any(predicate(pos, p) for p in pos["probes"])]


# --------------------------------------------------------------------------
# Agreement with the reference


def test_there_are_191_probe_positions():
    assert len(POSITIONS) == 191


@pytest.mark.parametrize("pos", POSITIONS, ids=ref.probe_id)
def test_position_matches_reference(pos):
    with workbench(pos) as bench:
        g = bench.game
        assert sorted(g.moves()) == pos["moves"]
        assert g.currplayer == pos["currplayer"]
        assert g.mode == pos["mode"]
        assert list(g.eliminated) == pos["eliminated"]
        assert g.gameover is False


@pytest.mark.parametrize("pos", POSITIONS, ids=ref.probe_id)
def test_probe_verdicts_match_reference(pos):
    with workbench(pos) as bench:
        problems = []
        for probe in pos["probes"]:
            if not _compared_verbatim(pos, probe):
                continue  # see the tests of deliberate differences below
            move = probe["input"]
            got = bench.game.validate_move(move)
            want = (probe["valid"], probe["complete"], probe["canrender"])
            if _verdict(got) != want:
                problems.append(
                    f"{probe['kind']} {move!r}: validate_move {_verdict(got)} != {want}"
                )
                continue
            assert isinstance(got.message, str) and got.message, f"{move!r}: no message"
            if got.valid:
                assert got.code is None, f"{move!r}: valid but code {got.code!r}"
            else:
                assert isinstance(got.code, str) and got.code, f"{move!r}: rejected without code"

            if _is_incomplete(probe):
                continue  # the reference plays incomplete moves; see test_we_refuse_incomplete...
            err = bench.attempt(move)
            if (err is None) != probe["move_ok"]:
                verb = "took it" if err is None else "refused it"
                problems.append(
                    f"{probe['kind']} {move!r}: move() {verb}, reference move_ok={probe['move_ok']}"
                )
            elif err is not None and err.code != got.code:
                problems.append(
                    f"{move!r}: move() code {err.code} != validate_move code {got.code}"
                )
        assert not problems, "\n".join(problems)


@pytest.mark.parametrize("pos", [p for p in POSITIONS if p.get("clicks")], ids=ref.probe_id)
def test_click_sequences_match_reference(pos):
    g = StawvsGame(pos["state"])
    before = g.serialize()
    problems = []
    for n, seq in enumerate(pos["clicks"]):
        for i, step in enumerate(seq["steps"]):
            where = f"sequence {n} ({seq['kind']}) step {i}: {step['move_in']!r} + {step['cell']}"
            want = step["result"]
            got = g.handle_click(step["move_in"], step["row"], step["col"])
            if _passed(pos) and want["valid"] and ref.COMPLETE_PIECE_MOVE_RE.match(want["move"]):
                # deliberate difference 1: no complete piece move after passing
                if got.valid or got.code != "MUST_PASS":
                    problems.append(f"{where}: expected MUST_PASS, got {got.valid} {got.code}")
                continue
            if (got.move, got.valid) != (want["move"], want["valid"]):
                problems.append(
                    f"{where}: (move, valid) {(got.move, got.valid)} != "
                    f"{(want['move'], want['valid'])}"
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
                elif (
                    ref.COMPLETE_PIECE_MOVE_RE.match(step["move_in"]) and got.code != "EXTRA_CLAIMS"
                ):
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
    for _, p in of_kind("legal_uppercase", "legal_padded"):
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
        lambda pos, p: (
            _is_complete_move_by_passed_player(pos, p["input"])
            and not _is_malformed_probe(p)
            and not _needs_normalising(p)
        )
    ),
    ids=ref.probe_id,
)
def test_we_refuse_complete_moves_from_a_player_who_passed(pos):
    """Difference 1: the reference lets a player who has passed still make a
    piece move; we only let them pass (MUST_PASS)."""
    with workbench(pos) as bench:
        for probe in pos["probes"]:
            move = probe["input"]
            if not _is_complete_move_by_passed_player(pos, move) or _needs_normalising(probe):
                continue
            got = bench.game.validate_move(move)
            assert (got.valid, got.code) == (False, "MUST_PASS"), f"{probe['kind']} {move!r}"
            assert got.complete is None and got.canrender is None
            err = bench.attempt(move)
            assert err is not None and err.code == "MUST_PASS", f"move({move!r})"
        # Passing remains legal, and it is all they may do.
        assert bench.game.moves() == ["pass"]
        assert bench.game.validate_move("pass").valid is True


@pytest.mark.parametrize(
    "pos", _positions_with(lambda pos, p: _needs_normalising(p)), ids=ref.probe_id
)
def test_we_ignore_case_and_whitespace_when_validating(pos):
    """Difference 2: the reference's validateMove is case- and space-sensitive
    while its move() is not; we read e.g. 'D3 - E2 , D3', ' pass' or 'PASS'
    exactly as their normalised form, in both."""
    with workbench(pos) as bench:
        problems = []
        for probe in pos["probes"]:
            if not _needs_normalising(probe):
                continue
            raw, norm = probe["input"], ref.normalise(probe["input"])
            got_raw = bench.game.validate_move(raw)
            got_norm = bench.game.validate_move(norm)
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

            def same_as_reference_move(g, raw=raw, norm=norm, probe=probe):
                assert g.lastmove == norm, f"move({raw!r}) recorded lastmove {g.lastmove!r}"
                if "move_after" in probe:  # what the reference's move() made of it
                    after = probe["move_after"]
                    assert ref.as_json(g.results) == after["results"], f"move({raw!r}) results"
                    assert g.currplayer == after["currplayer"], f"move({raw!r}) currplayer"
                    assert list(g.eliminated) == after["eliminated"], f"move({raw!r}) eliminated"

            err = bench.attempt(raw, after=same_as_reference_move)
            if err is None:
                if not (got_raw.valid and got_raw.complete == 1):
                    problems.append(f"move({raw!r}) took a move validate_move did not accept")
            elif want is not None and want.move_ok:
                problems.append(
                    f"{probe['kind']} move({raw!r}) refused ({err.code}) but {norm!r} is legal"
                )
            elif not got_raw.valid and err.code != got_raw.code:
                problems.append(
                    f"move({raw!r}) code {err.code} != validate_move code {got_raw.code}"
                )
            elif got_raw.valid and got_raw.complete == -1 and err.code != "INCOMPLETE":
                problems.append(f"move({raw!r}) of an incomplete move: code {err.code}")
        assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "pos",
    _positions_with(lambda pos, p: _is_incomplete(p) and _compared_verbatim(pos, p)),
    ids=ref.probe_id,
)
def test_we_refuse_incomplete_moves_without_partial(pos):
    """Difference 3: the reference's move() plays '', 'c3' or 'c3-d4' and ends
    the turn; ours refuses them (INCOMPLETE) unless partial=True, which only
    previews them."""
    with workbench(pos) as bench:
        for probe in pos["probes"]:
            if not (_is_incomplete(probe) and _compared_verbatim(pos, probe)):
                continue
            move = probe["input"]
            assert bench.game.validate_move(move).complete == -1, move
            err = bench.attempt(move)
            assert err is not None and err.code == "INCOMPLETE", f"move({move!r})"
    # move(..., partial=True) of FROM and FROM-TO: test_previews_match_reference
    # in test_reference_render.py.


@pytest.mark.parametrize(
    "pos", _positions_with(lambda pos, p: _is_malformed_probe(p)), ids=ref.probe_id
)
def test_we_reject_trailing_text_and_wrong_separators_as_malformed(pos):
    """Difference 4: the reference ignores what follows a complete move
    ('c3-d4,e5,f6', 'c3-d4,e5,', 'a1-b2,') and reads 'c3-d4-e5' as 'c3-d4'
    (or 'c3-d4,,e5' as an incomplete claim); we call all of these MALFORMED."""
    with workbench(pos) as bench:
        for probe in pos["probes"]:
            if not _is_malformed_probe(probe):
                continue
            move = probe["input"]
            got = bench.game.validate_move(move)
            assert (got.valid, got.code) == (False, "MALFORMED"), f"{probe['kind']} {move!r}"
            assert got.complete is None and got.canrender is None
            err = bench.attempt(move)
            assert err is not None and err.code == "MALFORMED", f"move({move!r})"
