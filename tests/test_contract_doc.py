"""Every section citation in the code, the tests and the docs points into docs/CONTRACT.md.

The code cites the host contract by number: "CONTRACT", the section sign and
a section number. The forms read are a single section, a range (a hyphen,
en dash, em dash or "to" between two numbers, each with or without its own
sign) and, after a doubled sign, a list ("3, 8 and 9"). These tests collect
the numbered headings of docs/CONTRACT.md and fail, naming file and line, on
every citation of a section it does not have. They also check that its
top-level headings are numbered 1, 2, 3, ... in order, all in one form.

This file writes the section sign as an escape, never literally, so that its
own examples are not citations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "CONTRACT.md"
SIGN = "\N{SECTION SIGN}"

#: Python files in these folders are scanned (recursively).
PY_FOLDERS = ("stawvs_ap", "tests", "benchmarks")
#: Markdown files scanned besides: the README, the changelog, everything in docs/.
MD_GLOBS = ("README.md", "CHANGELOG.md", "docs/**/*.md")

_NUMBER = r"\d+(?:\.\d+)*"  # 3, or 4.2 for a numbered subsection
_RANGE = ("-", "\u2013", "\u2014", "to")  # hyphen, en dash, em dash, "to"
_SEPARATOR = r"(?:-|\u2013|\u2014|to|,|and|&)"
#: One step after the first number: a separator, maybe a sign, a number.
_STEP = re.compile(rf"\s*(?P<separator>{_SEPARATOR})\s*{SIGN}*\s*(?P<number>{_NUMBER})")
#: One citation: one or more section signs and a number, then any further
#: steps (see :func:`_expand` for which of them name sections).
CITATION = re.compile(
    rf"(?P<signs>{SIGN}+)\s*(?P<first>{_NUMBER})"
    rf"(?P<rest>(?:\s*{_SEPARATOR}\s*{SIGN}*\s*{_NUMBER})*)"
)
#: "CONTRACT" followed by a section sign and no number: a citation of nothing.
UNNUMBERED = re.compile(rf"CONTRACT(?:\.md)?\s*{SIGN}+(?!\s*\d)")
#: A Markdown heading numbered in either form: "## " sign "3 Title" or "## 3. Title".
HEADING = re.compile(
    rf"^(?P<level>#{{2,6}})\s+(?:{SIGN}\s*(?P<signed>{_NUMBER})|(?P<dotted>{_NUMBER})\.)\s+\S"
)


class Citation(NamedTuple):
    path: Path
    line: int
    text: str  # the citation as written
    sections: tuple[str, ...]  # every section it names, ranges expanded
    problem: str = ""  # set when the citation itself makes no sense


def _expand(first: str, rest: str, plural: bool) -> tuple[tuple[str, ...], str]:
    """The sections a citation names, and a problem ('' when there is none).

    A range names every section from its start to its end. In a list, a number
    with its own sign is always a section; one without a sign is a section only
    after a doubled sign ("3, 25" after a single sign: 25 is just a number).
    """
    sections = [first]
    counts = True  # whether the number before this step was a section
    for step in _STEP.finditer(rest):
        number = step["number"]
        if step["separator"] not in _RANGE:
            counts = plural or SIGN in step.group(0)
            if counts:
                sections.append(number)
            continue
        if not counts:
            continue
        start = sections[-1]
        if "." in start or "." in number:
            sections.append(number)  # a range of subsections: both ends must exist
            continue
        if int(start) >= int(number):
            return tuple(sections), f"the range {start}-{number} does not ascend"
        sections.extend(str(n) for n in range(int(start) + 1, int(number) + 1))
    return tuple(sections), ""


def citations_in(path: Path, text: str) -> Iterator[Citation]:
    """Every section citation in ``text`` (the contents of ``path``)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if SIGN not in line:
            continue
        for match in CITATION.finditer(line):
            sections, problem = _expand(
                match["first"], match["rest"], plural=len(match["signs"]) > 1
            )
            yield Citation(path, number, match.group(0).strip(), sections, problem)
        for match in UNNUMBERED.finditer(line):
            yield Citation(path, number, match.group(0), (), "it names no section number")


def scanned_files(root: Path = ROOT) -> list[Path]:
    """The files whose citations must point into the contract."""
    found: set[Path] = set()
    for folder in PY_FOLDERS:
        found.update(p for p in (root / folder).rglob("*.py") if "__pycache__" not in p.parts)
    for pattern in MD_GLOBS:
        found.update(root.glob(pattern))
    return sorted(found)


def contract_headings(text: str) -> list[tuple[int, str, str]]:
    """The numbered headings of the contract: (level, number, form), in order."""
    out = []
    in_code = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        match = None if in_code else HEADING.match(line)
        if match is not None:
            form = "signed" if match["signed"] else "dotted"
            out.append((len(match["level"]), match["signed"] or match["dotted"], form))
    return out


def dangling(citations: Iterable[Citation], sections: set[str]) -> list[str]:
    """One line per citation that points nowhere: 'file:line: what is wrong'."""
    problems = []
    for c in citations:
        where = f"{c.path.relative_to(ROOT) if c.path.is_relative_to(ROOT) else c.path}:{c.line}"
        if c.problem:
            problems.append(f"{where}: {c.text!r}: {c.problem}")
            continue
        missing = [s for s in c.sections if s not in sections]
        if missing:
            names = ", ".join(SIGN + s for s in missing)
            problems.append(
                f"{where}: {c.text!r} cites {names}, which docs/CONTRACT.md does not have"
            )
    return problems


def _all_citations(files: Iterable[Path]) -> list[Citation]:
    out: list[Citation] = []
    for path in files:
        out.extend(citations_in(path, path.read_text(encoding="utf-8")))
    return out


def _sections() -> set[str]:
    assert DOC.is_file(), f"{DOC.relative_to(ROOT)} is missing: it is the contract the code cites"
    return {number for _, number, _ in contract_headings(DOC.read_text(encoding="utf-8"))}


# -- the checks ----------------------------------------------------------------


def test_every_citation_points_to_a_section_of_the_contract() -> None:
    problems = dangling(_all_citations(scanned_files()), _sections())
    assert not problems, "dangling contract citations:\n" + "\n".join(problems)


def test_the_contract_sections_are_numbered_consecutively_in_one_form() -> None:
    assert DOC.is_file(), "docs/CONTRACT.md is missing"
    headings = contract_headings(DOC.read_text(encoding="utf-8"))
    top = [(number, form) for level, number, form in headings if level == 2]
    numbers = [number for number, _ in top]
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)], (
        f"the sections of docs/CONTRACT.md are numbered {numbers}, not 1, 2, 3, ..."
    )
    assert len(numbers) >= 9, f"docs/CONTRACT.md has only {len(numbers)} numbered sections"
    forms = {form for _, form in top}
    assert len(forms) == 1, "use one heading form: '## <sign>N Title' or '## N. Title'"
    for level, number, _ in headings:
        if level > 2:  # a numbered subsection belongs to its section: 4.2 under 4
            assert "." in number and number.rsplit(".", 1)[0] in numbers, (
                f"subsection {number} of docs/CONTRACT.md has no parent section"
            )
    unnumbered = [
        line
        for line in DOC.read_text(encoding="utf-8").splitlines()
        if line.startswith("## ") and HEADING.match(line) is None
    ]
    assert not unnumbered, f"unnumbered sections in docs/CONTRACT.md: {unnumbered}"


def test_the_code_cites_the_contract() -> None:
    """The scan finds the citations the package makes (so a broken pattern
    cannot make the check above pass by finding nothing)."""
    cited = _all_citations(scanned_files())
    assert any(c.path.is_relative_to(ROOT / "stawvs_ap") for c in cited), (
        "no contract citation found under stawvs_ap/: is the pattern still right?"
    )


# -- the checker itself ----------------------------------------------------------


def _cited(line: str) -> list[tuple[str, ...]]:
    return [c.sections for c in citations_in(Path("x.py"), line)]


def test_the_citation_forms_are_read() -> None:
    s = SIGN
    assert _cited(f'"""Rendering (CONTRACT {s}6)."""') == [("6",)]
    assert _cited(f"CONTRACT {s}3, {s}8") == [("3", "8")]
    assert _cited(f"Moves (CONTRACT {s}2\u2013{s}3)") == [("2", "3")]
    assert _cited(f"{s}1 to 3") == [("1", "2", "3")]
    assert _cited(f"see {s}{s}3-5.") == [("3", "4", "5")]
    assert _cited(f"see {s}{s}3, 8 and 9") == [("3", "8", "9")]
    assert _cited(f"{s}4.2 and {s} 7") == [("4.2", "7")]
    assert _cited(f"{s}4. Then {s}5") == [("4",), ("5",)]
    assert _cited(f"{s}3, 25 and {s}12") == [("3", "12")]  # 25 has no sign of its own
    assert _cited(f"{s}3, 25-27") == [("3",)]
    assert _cited("no citation here: CONTRACT.md, 3 sections") == []
    (bad,) = list(citations_in(Path("x.py"), f"see CONTRACT {s} above"))
    assert bad.problem


def test_a_dangling_citation_is_reported_with_file_and_line(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(f'"""One line."""\n# CONTRACT {SIGN}3 and {SIGN}12\n', encoding="utf-8")
    problems = dangling(_all_citations([planted]), {str(n) for n in range(1, 10)})
    assert len(problems) == 1
    assert f"planted.py:2: '{SIGN}3 and {SIGN}12' cites {SIGN}12," in problems[0]
    reversed_range = tmp_path / "reversed.py"
    reversed_range.write_text(f"# {SIGN}{SIGN}5-3\n", encoding="utf-8")
    (problem,) = dangling(_all_citations([reversed_range]), {"3", "4", "5"})
    assert "does not ascend" in problem


def test_headings_in_code_blocks_and_both_forms_are_told_apart() -> None:
    text = f"# Title\n## {SIGN}1 Rules\n```\n## {SIGN}7 not a heading\n```\n## 2. Moves\n"
    assert contract_headings(text) == [(2, "1", "signed"), (2, "2", "dotted")]
