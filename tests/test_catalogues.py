"""The catalogues (docs/TRANSLATING.md): the template holds exactly what the code
declares, every language present is complete, with the source's placeholders and
its own plural rule, and the compiled .mo files are those of the .po files."""

from __future__ import annotations

import io
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

import stawvs_ap.cli.messages
import stawvs_ap.host.messages
import stawvs_ap.pictures.messages
import stawvs_ap.playground.messages
import stawvs_ap.service.messages
from stawvs_ap.i18n import EXPECTED_LANGUAGES, SOURCE_LANGUAGE, Phrase, catalogue, messages

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "stawvs_ap" / "i18n" / "locales"
TEMPLATE = LOCALES / "stawvs_ap.pot"
#: What `pybabel extract` is told (docs/TRANSLATING.md gives the same command).
KEYWORDS = {"message": ((1, "c"), 2), "plural": ((1, "c"), 2, 3)}
COMMENT_TAGS = ["TRANSLATORS:"]
#: Translations the same as the English, and rightly so.
SAME_AS_ENGLISH = {(tag, "list.separator") for tag in EXPECTED_LANGUAGES}  # ", " in most
# A refusal and its code ("{message} [{code}]"): nothing to translate but the order.
SAME_AS_ENGLISH |= {(tag, "play.refused-with-code") for tag in EXPECTED_LANGUAGES}
# A verdict and its line of moves ("{verdict}: {moves}"): the same, but in French.
SAME_AS_ENGLISH |= {(tag, "solve.line") for tag in EXPECTED_LANGUAGES if tag != "fr"}
# What a move did, then the move in notation ("{said} ({move})"): punctuation only.
SAME_AS_ENGLISH |= {(tag, "page.said.move") for tag in EXPECTED_LANGUAGES}
SAME_AS_ENGLISH |= {("fr", "sidebar.scores"), ("fr", "page.panel.points")}  # "points" in French too
# The names of keys as the keyboards of these languages print them.
SAME_AS_ENGLISH |= {(tag, "page.key.escape") for tag in ("de", "es", "it", "pt-BR")}
SAME_AS_ENGLISH |= {("it", "page.key.home"), ("pt-BR", "page.key.home"), ("pt-BR", "page.key.end")}
SAME_AS_ENGLISH |= {
    (tag, f"page.key.{key}")
    for tag in ("ru", "uk", "ro", "tr", "ta", "ko", "eo")
    for key in ("home", "end", "escape")
}


def _folder(tag: str) -> Path:
    return LOCALES / tag.replace("-", "_") / "LC_MESSAGES"


PRESENT = sorted(p.parent.parent.name.replace("_", "-") for p in LOCALES.glob("*/LC_MESSAGES/*.po"))


def _read(path: Path, tag: str | None = None):  # type: ignore[no-untyped-def]
    with path.open("rb") as f:
        return read_po(f, locale=tag.replace("-", "_") if tag else None)


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def test_the_template_holds_exactly_what_the_code_declares() -> None:
    with (ROOT / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    extracted = {
        (context, msgid if isinstance(msgid, str) else tuple(msgid)): tuple(comments)
        for _, _, msgid, comments, context in extract_from_dir(
            str(ROOT),
            method_map,
            options_map,
            keywords=KEYWORDS,
            comment_tags=COMMENT_TAGS,
            strip_comment_tags=False,
        )
    }
    template = {(m.context, m.id): tuple(m.auto_comments) for m in _read(TEMPLATE) if m.id}
    assert template == extracted, "run the extract and update commands of docs/TRANSLATING.md"
    declared = {
        (m.id, m.text if m.plural_text is None else (m.text, m.plural_text))
        for m in messages().values()
    }
    assert set(template) == declared


def test_no_message_reads_as_a_printf_template() -> None:
    # Placeholders are named in braces; a "%" before a letter ("62% of") makes
    # Babel flag the message python-format, and pybabel compile then warns.
    flagged = [m.context for m in _read(TEMPLATE) if m.id and "python-format" in m.flags]
    assert flagged == []


def test_the_template_tells_translators_what_the_hard_words_mean() -> None:
    notes = " ".join(c for m in _read(TEMPLATE) for c in m.auto_comments)
    assert "a cap is a game piece" in notes
    assert "To claim is to take a pyramid" in notes
    assert "{square} is a square such as d5" in notes


@pytest.mark.parametrize("tag", PRESENT)
def test_every_catalogue_has_every_message_translated(tag: str) -> None:
    template = {(m.context, m.id) for m in _read(TEMPLATE) if m.id}
    catalog = _read(_folder(tag) / "stawvs_ap.po", tag)
    assert not catalog.obsolete, "obsolete messages: run pybabel update and remove them"
    found = {(m.context, m.id): m for m in catalog if m.id}
    assert set(found) == template
    for key, entry in found.items():
        assert not entry.fuzzy, key
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert all(forms), f"{tag}: {key[0]} is not translated"
        if isinstance(entry.id, tuple):
            assert len(forms) == catalog.num_plurals, key


@pytest.mark.parametrize("tag", PRESENT)
def test_each_translation_has_exactly_the_placeholders_of_the_source(tag: str) -> None:
    for entry in _read(_folder(tag) / "stawvs_ap.po", tag):
        if not entry.id:
            continue
        sources = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        wanted = _placeholders(sources[0])
        assert all(_placeholders(s) == wanted for s in sources), entry.context
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for form in forms:
            assert _placeholders(form) == wanted, (tag, entry.context, form)


@pytest.mark.parametrize("tag", PRESENT)
def test_no_english_is_left_in_a_translation(tag: str) -> None:
    for entry in _read(_folder(tag) / "stawvs_ap.po", tag):
        if not entry.id or (tag, entry.context) in SAME_AS_ENGLISH:
            continue
        sources = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert not set(forms) & set(sources), (tag, entry.context)


@pytest.mark.parametrize("tag", PRESENT)
def test_each_catalogue_has_its_languages_plural_rule(tag: str) -> None:
    catalog = _read(_folder(tag) / "stawvs_ap.po", tag)
    rule = get_plural(tag.replace("-", "_"))  # CLDR's, as Babel knows it
    assert catalog.num_plurals == rule.num_plurals
    assert catalog.plural_expr == rule.plural_expr
    words = catalogue(tag)
    assert words.language == tag
    assert f"nplurals={rule.num_plurals};" in words.plural_forms


@pytest.mark.parametrize("tag", PRESENT)
def test_the_compiled_catalogue_is_the_po_file_compiled(tag: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, _read(_folder(tag) / "stawvs_ap.po", tag))
    committed = (_folder(tag) / "stawvs_ap.mo").read_bytes()
    assert committed == compiled.getvalue(), "run the compile command of docs/TRANSLATING.md"


@pytest.mark.parametrize("tag", PRESENT)
def test_every_message_formats_in_every_language(tag: str) -> None:
    words = catalogue(tag)
    for declared in messages().values():
        args = {name: f"<{name}>" for name in _placeholders(declared.text)}
        if declared.plural_by is not None:
            for n in (0, 1, 2, 3, 5, 11, 21, 22, 100, 1000000):
                said = words.say(Phrase(declared, {**args, declared.plural_by: n}))
                assert str(n) in said, (tag, declared.id)
        else:
            said = words.say(Phrase(declared, args))
            assert all(f"<{name}>" in said for name in args), (tag, declared.id)


#: How each number of points reads, in the languages we know the words of.
POINTS = {
    "de": {1: "1 Punkt)", 2: "2 Punkte)", 5: "5 Punkte)", 0: "0 Punkte)"},
    "fr": {0: "0 point)", 1: "1 point)", 2: "2 points)", 5: "5 points)"},
    "ru": {
        1: "1 очко)",
        2: "2 очка)",
        5: "5 очков)",
        11: "11 очков)",
        21: "21 очко)",
        22: "22 очка)",
    },
    "uk": {
        1: "1 очко)",
        2: "2 очки)",
        5: "5 очок)",
        11: "11 очок)",
        21: "21 очко)",
        24: "24 очки)",
    },
    "en": {1: "1 point)", 2: "2 points)"},
    "es": {0: "0 puntos)", 1: "1 punto)", 2: "2 puntos)", 21: "21 puntos)"},
    "it": {0: "0 punti)", 1: "1 punto)", 2: "2 punti)", 21: "21 punti)"},
    "pt-BR": {0: "0 ponto)", 1: "1 ponto)", 2: "2 pontos)", 21: "21 pontos)"},  # CLDR: 0 is "one"
    # Romanian: "de" from 20 on, except after 101-119 and the like.
    "ro": {
        1: "1 punct)",
        2: "2 puncte)",
        19: "19 puncte)",
        20: "20 de puncte)",
        101: "101 puncte)",
        120: "120 de puncte)",
    },
    "tr": {1: "1 puan)", 2: "2 puan)"},  # a noun after a number stays singular
    "eo": {1: "1 poento)", 2: "2 poentoj)", 0: "0 poentoj)"},
    "ko": {1: "(1점)", 2: "(2점)"},
    "ta": {1: "1 புள்ளி)", 2: "2 புள்ளிகள்)"},
}


@pytest.mark.parametrize(("tag", "n"), [(tag, n) for tag, table in POINTS.items() for n in table])
def test_points_take_the_right_plural_form(tag: str, n: int) -> None:
    if tag != SOURCE_LANGUAGE and tag not in PRESENT:
        pytest.skip(f"no {tag} catalogue yet")
    label = stawvs_ap.host.messages.STASH_LABEL
    said = catalogue(tag).say(Phrase(label, {"player": 1, "points": n}))
    assert said.endswith(POINTS[tag][n]), said


def test_all_of_abstract_plays_languages_are_present() -> None:
    assert sorted([SOURCE_LANGUAGE, *PRESENT]) == sorted(EXPECTED_LANGUAGES)
