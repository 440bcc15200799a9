"""Our own JSON Schemas, at the top level (``schemas/``, shipped in the wheel, read through
:mod:`stawvs_ap.schemas`): up to date, satisfied by every fixture and output, and
strict enough to refuse broken documents. Also the developer tool that writes
them (``python devtools/schemagen.py``) and where it writes."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import jsonschema
import pytest
import referencing

from devtools.schemagen import SCHEMA_DIR, build_schemas, main, schema_text
from stawvs_ap import StawvsError, StawvsGame, schemas
from stawvs_ap.host.metadata import gameinfo_dict, variant_display_names

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import reference_data as ref
    from hostile import thinned
    from upstream_schemas import our_errors
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref
    from tests.hostile import thinned
    from tests.upstream_schemas import our_errors

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FOLDER = ROOT / "schemas"
GAMES = ref.games()


def _starting_position(state: str) -> str:
    """The record's ``startingPosition`` for a game's first stack entry."""
    board = dict(json.loads(state)["stack"][0]["board"]["value"])
    ranks = []
    for rank in range(8, 0, -1):
        cells = [board.get(f"{file}{rank}") for file in "abcdefgh"]
        ranks.append("".join("." if c is None else f"{c[0][0]}{c[0][1]}" for c in cells))
    return "/".join(ranks)


def _record(game: dict) -> dict:
    record = copy.deepcopy(game["record"])
    record["header"]["startingPosition"] = _starting_position(game["initial"])
    return record


# --------------------------------------------------------------------------
# The files themselves


def test_schema_files_are_up_to_date_with_the_generator():
    generated = build_schemas()
    assert set(generated) == set(schemas.FILES.values()) - {"review.schema.json"}
    for name in schemas.names():
        file = schemas.file_name(name)
        if file in generated:
            assert schemas.text(name) == schema_text(generated[file]), (
                f"{file} is stale: run python devtools/schemagen.py"
            )


def test_the_package_reads_the_files_of_the_checkout():
    # Run from a checkout (or an editable install), the package reads the top-level files.
    for name in schemas.names():
        path = SCHEMA_FOLDER / schemas.file_name(name)
        assert schemas.text(name) == path.read_text(encoding="utf-8")
    assert sorted(p.name for p in SCHEMA_FOLDER.glob("*.json")) == sorted(schemas.FILES.values())


def test_schemagen_check_reports_a_stale_file(tmp_path):
    assert main(["--out", str(tmp_path)]) == 0
    assert main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "render.schema.json").write_text("{}", encoding="utf-8")
    assert main(["--out", str(tmp_path), "--check"]) == 1


@pytest.mark.parametrize("name", schemas.names())
def test_each_schema_is_a_valid_draft_2020_12_schema(name):
    schema = schemas.load(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == "urn:stawvs-ap:schema:" + schemas.file_name(name).split(".")[0]
    jsonschema.Draft202012Validator.check_schema(schema)


# --------------------------------------------------------------------------
# The public API: stawvs_ap.schemas


def test_the_api_names_each_schema_and_loads_it():
    assert schemas.names() == (
        "state",
        "record",
        "render",
        "result",
        "gameinfo",
        "protocol",
        "review",
    )
    assert schemas.load("record")["title"] == "Stawvs game record"
    assert schemas.load("gamerecord") == schemas.load("record")
    assert schemas.file_name("record") == "gamerecord.schema.json"
    for name in schemas.names():
        assert json.loads(schemas.text(name)) == schemas.load(name)


def test_load_gives_a_new_dict_each_time():
    first = schemas.load("state")
    first["title"] = "changed"
    assert schemas.load("state")["title"] == "Stawvs serialized state"


@pytest.mark.parametrize("name", ["nosuch", "", "state.schema.json", "State", 5, None])
def test_an_unknown_schema_name_is_a_bad_argument(name):
    for call in (schemas.load, schemas.text, schemas.file_name):
        with pytest.raises(StawvsError) as refused:
            call(name)
        assert refused.value.code == "BAD_ARGUMENT"


def test_the_documented_registry_validates_a_protocol_line():
    # The recipe of the stawvs_ap.schemas docstring: the protocol schema's $refs
    # resolve through the other schemas' $ids.
    registry = referencing.Registry().with_resources(
        (doc["$id"], referencing.Resource.from_contents(doc))
        for doc in map(schemas.load, schemas.names())
    )
    validator = jsonschema.Draft202012Validator(schemas.load("protocol"), registry=registry)
    state = StawvsGame(2, seed=1).serialize()
    validator.validate(
        {"jsonrpc": "2.0", "id": 1, "method": "moves", "params": {"state": json.loads(state)}}
    )
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(
            {"jsonrpc": "2.0", "id": 1, "method": "moves", "params": {"state": {"game": "chess"}}}
        )


# --------------------------------------------------------------------------
# Where schemagen writes


def test_schemagen_defaults_to_the_schemas_of_its_own_checkout(tmp_path, monkeypatch, capsys):
    assert SCHEMA_DIR == SCHEMA_FOLDER
    monkeypatch.chdir(tmp_path)
    assert main(["--check"]) == 0
    assert capsys.readouterr().err == ""
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------
# Fixtures and outputs validate


@pytest.mark.slow
@pytest.mark.parametrize("game", thinned(GAMES, 3, ref.game_id))
def test_reference_game_states_satisfy_the_state_schema(game):
    # The final state holds every stack entry of the game, so it covers every
    # position of the probes and extras taken from it. Every third game (all
    # player counts) in the default run, all 27 in the long battery.
    assert our_errors("state", json.loads(game["initial"])) == []
    assert our_errors("state", json.loads(game["final"])) == []


def _top_only(state: str) -> dict:
    """The state with only its last stack entry (the others are in the game's final state)."""
    doc = json.loads(state)
    doc["stack"] = doc["stack"][-1:]
    return doc


@pytest.mark.slow
def test_probe_and_extra_states_satisfy_the_state_schema():
    # A sample (every third), since the stacks repeat the games' final states.
    states = [p["state"] for p in ref.probes()[::3]]
    for line in ref.extras()[::3]:
        states += [
            line[k]
            for k in ("state", "state_before", "serialize", "after_undo")
            if isinstance(line.get(k), str)
        ]
    for state in states:
        assert our_errors("state", _top_only(state)) == []


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES[::3], ids=ref.game_id)
def test_reference_renders_and_results_satisfy_our_schemas(game):
    for ply in game["plies"][::3] + game["plies"][-1:]:
        assert our_errors("render", ply["render"]) == [], ply["move"]
    assert our_errors("render", game["render_loaded"]) == []
    for ply in game["plies"]:
        for result in ply["results"]:
            assert our_errors("result", result) == [], result


@pytest.mark.slow
def test_preview_and_ending_outputs_satisfy_our_schemas():
    for line in ref.extras("preview")[::2]:
        for key in ("preview_from", "preview_to", "preview_full"):
            if line.get(key):
                assert our_errors("render", line[key]["render"]) == []
                assert all(our_errors("result", r) == [] for r in line[key]["results"])
    for line in ref.extras("ending"):
        if line.get("render"):
            assert our_errors("render", line["render"]) == []


@pytest.mark.slow
@pytest.mark.parametrize("variants", [[], ["hole", "hey"], ["random", "finalfree", "pieces-2"]])
def test_our_outputs_during_a_random_game_satisfy_our_schemas(variants):
    rng = random.Random(7)
    game = StawvsGame(4, variants=variants, seed=7)
    ply = 0
    while not game.gameover:
        game.move(game.random_move(rng))
        ply += 1
        if ply % 15 == 0 or game.gameover:
            assert our_errors("render", game.render()) == []
        assert all(our_errors("result", r) == [] for r in game.results)
    assert our_errors("state", game.state()) == []


def test_metadata_satisfies_our_gameinfo_schema():
    assert our_errors("gameinfo", gameinfo_dict()) == []
    assert our_errors("gameinfo", json.loads(StawvsGame.info())) == []


@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_reference_records_with_a_starting_position_satisfy_our_record_schema(game):
    record = _record(game)
    assert record["header"]["game"]["variants"] == variant_display_names(game["variants"])
    assert our_errors("gamerecord", record) == []


def test_our_generated_record_satisfies_our_record_schema():
    game = StawvsGame(GAMES[0]["final"])
    if not hasattr(game, "gen_record"):
        pytest.skip("StawvsGame.gen_record is not there yet")
    record = game.gen_record(
        uid="game-1", players=[{"name": "Alice", "uid": "u1"}, {"name": "Bob", "uid": "u2"}]
    )
    assert our_errors("gamerecord", record) == []


# --------------------------------------------------------------------------
# Broken documents are refused


def _state() -> dict:
    return json.loads(GAMES[0]["final"])


def _board_cell(doc: dict, index: int = 0) -> list:
    return doc["stack"][-1]["board"]["value"][index]


def _broken_states() -> dict[str, dict]:
    cases: dict[str, dict] = {}
    doc = _state()
    _board_cell(doc)[0] = "i9"
    cases["square off the board"] = doc
    doc = _state()
    _board_cell(doc)[1][0][1] = 4
    cases["pyramid size 4"] = doc
    doc = _state()
    _board_cell(doc)[1][0][0] = "XX"
    cases["colour XX"] = doc
    doc = _state()
    doc["stack"][-1]["currplayer"] = 5
    cases["player 5 to move"] = doc
    doc = _state()
    del doc["stack"][-1]["mode"]
    cases["entry without mode"] = doc
    doc = _state()
    doc["stack"][-1]["_version"] = "20200101"
    cases["another engine version"] = doc
    doc = _state()
    doc["game"] = "chess"
    cases["another game"] = doc
    doc = _state()
    doc["variants"] = ["nosuch"]
    cases["unknown variant"] = doc
    doc = _state()
    cell = next(c for c in doc["stack"][0]["board"]["value"] if len(c[1]) == 1)
    cell[1][0][0] = "GH"
    cases["ghost without a cap"] = doc
    doc = _state()
    doc["stack"][-1]["captured"][0].append(["GH", 1])
    cases["ghost in a collection"] = doc
    return cases


@pytest.mark.slow
@pytest.mark.parametrize("case", thinned(list(_broken_states()), 3))
def test_broken_state_is_refused(case):
    assert our_errors("state", _broken_states()[case]) != []


def _render() -> dict:
    return copy.deepcopy(GAMES[0]["plies"][-1]["render"])


def _broken_renders() -> dict[str, dict]:
    cases: dict[str, dict] = {}
    doc = _render()
    doc["pieces"].append([[] for _ in range(8)])
    cases["9 rows"] = doc
    doc = _render()
    doc["pieces"][1].append([])
    cases["9 squares in a row"] = doc
    doc = _render()
    doc["pieces"][1][1] = ["XX1"]
    cases["colour XX"] = doc
    doc = _render()
    doc["pieces"][1][1] = ["PI4"]
    cases["size 4"] = doc
    doc = _render()
    doc["pieces"][1][1] = ["PI1", "P5"]
    cases["cap of player 5"] = doc
    doc = _render()
    del doc["pieces"]
    cases["missing pieces"] = doc
    doc = _render()
    doc["annotations"] = [{"type": "enter", "targets": [{"row": 8, "col": 0}]}]
    cases["annotation off the board"] = doc
    doc = _render()
    doc["areas"][0]["stash"][0] = ["PI3c", "PI2c", "PI1c", "BL1c"]
    cases["stack of four"] = doc
    doc = _render()
    doc["board"]["width"] = 9
    cases["board 9 wide"] = doc
    return cases


@pytest.mark.parametrize("case", list(_broken_renders()))
def test_broken_render_is_refused(case):
    assert our_errors("render", _broken_renders()[case]) != []


@pytest.mark.parametrize(
    "result",
    [
        {"type": "place", "where": "i9", "who": 1},
        {"type": "place", "where": "d5", "who": 5},
        {"type": "move", "from": "c3", "how": "f2", "what": "a large blue pyramid"},
        {"type": "move", "from": "c3", "to": "f6", "how": "f2", "what": "a huge blue pyramid"},
        {"type": "move", "from": "c3", "to": "f6", "how": "f2"},
        {"type": "winners", "players": [5]},
        {"type": "announce"},
        {"type": "capture", "where": "d5"},
        {"type": "pass", "who": 1},
    ],
    ids=[
        "square",
        "player 5",
        "missing to",
        "bad pyramid",
        "how without what",
        "winner 5",
        "missing payload",
        "unknown type",
        "extra key",
    ],
)
def test_broken_result_is_refused(result):
    assert our_errors("result", result) != []


def test_broken_metadata_is_refused():
    for key in ("uid", "name", "version", "categories"):
        doc = gameinfo_dict()
        del doc[key]
        assert our_errors("gameinfo", doc) != [], key
    doc = gameinfo_dict()
    doc["playercounts"] = [5]
    assert our_errors("gameinfo", doc) != []


def test_broken_records_are_refused():
    base = _record(GAMES[0])
    for mutate in (
        lambda r: r["header"].pop("startingPosition"),
        lambda r: r["header"].__setitem__("startingPosition", "/".join(["." * 8] * 9)),
        lambda r: r["header"].__setitem__("startingPosition", "XX1" + "." * 7 + "/" * 0),
        lambda r: r["header"]["game"].__setitem__("variants", ["Bigger board"]),
        lambda r: r["moves"][0].__setitem__(0, "i9"),
    ):
        doc = copy.deepcopy(base)
        mutate(doc)
        assert our_errors("gamerecord", doc) != []
