"""devtools/codelines.py counts lines of code: not docstrings, comments or blank lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from devtools.codelines import code_lines, main

SAMPLE = '''"""A module's docstring,
over two lines."""

import os  # a comment after code counts as code

# a comment alone does not


class Thing:
    """A class's docstring."""

    def method(self) -> str:
        """A method's docstring."""
        text = """a string that is no docstring
counts, every line of it"""
        return (
            text
        )
'''


def test_docstrings_comments_and_blank_lines_are_not_code() -> None:
    # import; class; def; text = (2 lines); return (3 lines)
    assert code_lines(SAMPLE) == 8


def test_the_tool_prints_the_total_of_the_files_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.py").write_text(SAMPLE, encoding="utf-8")
    (tmp_path / "b.py").write_text("x = 1\n", encoding="utf-8")
    assert main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "9  lines of code in 2 modules"


def test_a_missing_path_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "nothing")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
