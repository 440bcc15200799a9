"""How many lines of code a package holds: docstrings, comments and blank lines left out.

A developer tool of the checkout (it is not in the wheel)::

    python devtools/codelines.py                 # the package stawvs_ap, one total
    python devtools/codelines.py --each          # and each module, largest first
    python devtools/codelines.py stawvs_ap/cli   # any folders or files

A line counts when it holds a token of code: a line that is only a comment, only
part of a docstring (the string that opens a module, class or function) or
blank does not. A statement written over several lines counts each of them.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
import tokenize
from collections.abc import Iterator, Sequence
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "stawvs_ap"
_NOT_CODE = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENCODING,
    tokenize.ENDMARKER,
}


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        first = node.body[0] if node.body else None
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def code_lines(source: str) -> int:
    """The lines of ``source`` that hold code.

    >>> code_lines("'''Doc.'''\\n\\n# why\\nx = 1  # what\\n"
    ...            "def f():\\n    '''Doc\\n    more.'''\\n    return x\\n")
    3
    """
    docstrings = _docstring_lines(ast.parse(source))
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in _NOT_CODE:
            continue
        for line in range(token.start[0], token.end[0] + 1):
            if line not in docstrings:
                lines.add(line)
    return len(lines)


def _modules(paths: Sequence[Path]) -> Iterator[Path]:
    for path in paths:
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("paths", nargs="*", type=Path, help="folders or files (default: stawvs_ap)")
    parser.add_argument("--each", action="store_true", help="also each module, largest first")
    args = parser.parse_args(argv)
    paths = args.paths or [PACKAGE]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        print(f"codelines: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    counts = {path: code_lines(path.read_text(encoding="utf-8")) for path in _modules(paths)}
    if args.each:
        for path, count in sorted(counts.items(), key=lambda item: -item[1]):
            print(f"{count:7,}  {path}")
    print(f"{sum(counts.values()):7,}  lines of code in {len(counts)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
