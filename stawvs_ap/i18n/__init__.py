"""The translation layer: messages declared once, worded in a player's language.

Each floor that speaks to people declares its messages in one module
(:mod:`stawvs_ap.host.messages`, :mod:`stawvs_ap.pictures.messages`, ...) with
:func:`message` and :func:`plural`: a stable id (the gettext context), the
English text (the gettext message id) with named placeholders such as
``{square}``, and for plurals the placeholder whose number chooses the form.
Code builds a :class:`Phrase` (a message and its arguments, typed values
first) and a :class:`Catalogue` words it in one language:

>>> from stawvs_ap.i18n import LIST_AND, Phrase, catalogue
>>> LIST_AND
Message(id='list.and', text='{items} and {last}', plural_text=None, plural_by=None, words=())
>>> catalogue("en").say(Phrase(LIST_AND, {"items": "Ann, Bo", "last": "Cy"}))
'Ann, Bo and Cy'
>>> catalogue("en").listing(["Ann", "Bo", "Cy"])
'Ann, Bo and Cy'
>>> catalogue("xx-Unknown").language  # anything unknown is English, never an error
'en'

The catalogues are gettext ``.mo`` files compiled by Babel from the ``.po``
files beside them (``locales/<lang>/LC_MESSAGES/stawvs_ap.po``) and read with
the standard library's :mod:`gettext`, each once, at its first use; choosing
a language per call costs a dictionary look-up. English is the source
language: its words are the messages' own. docs/TRANSLATING.md says how to add
a language or fix a translation.

This module is a leaf every floor but the rules core may use (the core has no
words).
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from importlib import resources
from operator import itemgetter
from string import Formatter
from typing import Any, Final, NamedTuple

__all__ = [
    "DOMAIN",
    "EXPECTED_LANGUAGES",
    "LIST_AND",
    "LIST_SEPARATOR",
    "PLAYER",
    "SOURCE_LANGUAGE",
    "Argument",
    "Catalogue",
    "Listing",
    "Message",
    "Phrase",
    "catalogue",
    "language_of_environment",
    "languages",
    "message",
    "messages",
    "negotiate",
    "player_name",
    "plural",
    "printable",
]

#: The gettext domain: the catalogues' file name.
DOMAIN: Final = "stawvs_ap"
#: The language the messages are written in.
SOURCE_LANGUAGE: Final = "en"
#: Abstract Play's languages, as language tags: the catalogues this package aims to ship.
EXPECTED_LANGUAGES: Final = (
    "de", "en", "eo", "es", "fr", "it", "ko", "pt-BR", "ro", "ru", "ta", "tr", "uk",
)  # fmt: skip
#: English's plural rule, in gettext's notation (what a catalogue's header says).
_ENGLISH_PLURALS: Final = "nplurals=2; plural=(n != 1);"


class Message(NamedTuple):
    """A sentence or label as a floor's messages module declares it.

    ``id`` is stable and unique (the gettext context: what code and web pages
    name it by); ``text`` is the English words with named placeholders;
    ``plural_text`` is the English plural and ``plural_by`` the placeholder
    whose number chooses the form (both None for a message without plural
    forms); ``words`` the placeholders that take words rather than text or a
    number: a message, a phrase or a :class:`Listing`, worded in the same language.
    """

    id: str
    text: str
    plural_text: str | None = None
    plural_by: str | None = None
    words: tuple[str, ...] = ()


class Phrase(NamedTuple):
    """A message with its arguments, not yet worded: what the code makes, and
    any :class:`Catalogue` words. An argument may itself be a message (without
    placeholders), a phrase or a :class:`Listing`: words in the same language."""

    message: Message
    args: Mapping[str, Argument] = {}


class Listing(tuple[Any, ...]):
    """Arguments worded as a list: ``a``, ``a and b``, ``a, b and c``."""

    __slots__ = ()


#: What a placeholder takes: text, a number, or words in the sentence's language.
Argument = str | int | Message | Phrase | Listing


_REGISTRY: dict[str, Message] = {}
#: The catalogues by the tags :func:`negotiate` answers (so at most one per language).
_BY_TAG: dict[str, Catalogue] = {}


def message(id: str, text: str, *, words: tuple[str, ...] = ()) -> Message:
    """Declare a message (``id`` unique across the package); its words are
    ``text``; the placeholders named in ``words`` take words (see :class:`Message`)."""
    return _register(Message(id, text, words=words))


def plural(
    id: str, singular: str, plural: str, *, count: str, words: tuple[str, ...] = ()
) -> Message:
    """Declare a message with plural forms, chosen by the number in placeholder ``count``."""
    return _register(Message(id, singular, plural, count, words))


def _register(declared: Message) -> Message:
    known = _REGISTRY.setdefault(declared.id, declared)
    if known != declared:
        raise ValueError(f"two messages are declared with the id {declared.id!r}")
    return declared


def messages() -> dict[str, Message]:
    """Every message declared so far (those of the floors imported), by id."""
    return dict(_REGISTRY)


# TRANSLATORS: the end of a list of two or more names or pyramids: "A, B
# and C". {items} is the list before its last item, joined with
# list.separator.
LIST_AND: Final = message("list.and", "{items} and {last}")
LIST_SEPARATOR: Final = message("list.separator", ", ")
# A player's name is said by the host's words (the chat log) and the pictures'
# (the text board, the SVG), two floors apart, so it is declared here, below both.
# TRANSLATORS: a player's name when the host gives none; {player} is 1 to
# 4.
PLAYER: Final = message("player.name", "Player {player}")


def player_name(player: int) -> Phrase:
    """A player's name when the host gives none: "Player 2"."""
    return Phrase(PLAYER, {"player": player})


#: What text from outside is never shown with: control characters (they act on
#: a terminal, and most are refused by XML), the bidirectional embeddings,
#: overrides and isolates (they reorder the text after them), surrogates and
#: the two non-characters XML refuses.
_UNSHOWN: Final = re.compile(
    "[\\x00-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e"
    "\\u2066-\\u2069\\ud800-\\udfff\\ufffe\\uffff]"
)


def printable(text: object, limit: int | None = None) -> str:
    """Text from outside (a player's name from a record or a request, a line
    typed) as a terminal or a picture may show it: every character that could
    act on the terminal, break or reorder the line, or make an SVG unreadable is
    replaced by U+FFFD, the others kept; with ``limit``, cut to that many
    characters and an ellipsis.

    >>> printable("Ann\\x1b[2J") == "Ann\\ufffd[2J"
    True
    >>> printable("Zoë 🎲")
    'Zoë 🎲'
    >>> printable("Bartholomew", limit=4)
    'Bart…'
    """
    shown = _UNSHOWN.sub("\ufffd", str(text))
    return shown if limit is None or len(shown) <= limit else shown[:limit] + "…"


class Catalogue:
    """One language's words: :meth:`say` words a phrase, :meth:`table` gives
    the templates (for a web page). Get one with :func:`catalogue`."""

    def __init__(self, language: str, translations: gettext.NullTranslations) -> None:
        self.language = language
        self._translations = translations
        #: The catalogue's plural rule in gettext's notation (``nplurals=2; plural=(n != 1);``).
        self.plural_forms: str = translations.info().get("plural-forms", _ENGLISH_PLURALS)
        self._plural_of: Callable[[int], int] = getattr(
            translations, "plural", lambda n: int(n != 1)
        )
        # The templates by message id (and plural form), read from the catalogue at
        # their first use, and each made ready for the % operator (twice as fast as
        # str.format; docs/DEVELOPMENT.md): a verdict is worded on every validate_move().
        self._templates: dict[str, str] = {}
        self._plurals: dict[tuple[str, int], str] = {}
        self._forms: dict[str, _Form] = {}
        self._plural_forms: dict[tuple[str, int], _Form] = {}

    def __repr__(self) -> str:
        return f"<Catalogue {self.language}>"

    def template(self, message: Message, n: int = 1) -> str:
        """The words of ``message`` with its placeholders; for a message with
        plural forms, the form for the number ``n``."""
        if message.plural_text is None:
            found = self._templates.get(message.id)
            if found is None:
                found = self._templates[message.id] = self.looked_up(message)
            return found
        key = (message.id, self._plural_of(n))
        form = self._plurals.get(key)
        if form is None:
            form = self._plurals[key] = self.looked_up(message, n)
        return form

    def looked_up(self, message: Message, n: int = 1) -> str:
        """:meth:`template` the plain way: asking gettext every time."""
        if message.plural_text is None:
            return self._translations.pgettext(message.id, message.text)
        return self._translations.npgettext(message.id, message.text, message.plural_text, n)

    def forms(self, message: Message) -> list[str]:
        """Every plural form of ``message`` in this language, in the catalogue's order."""
        return [self.template(message, n) for n in self.representatives()]

    def representatives(self) -> list[int]:
        """The smallest number of each plural form, in the order of the forms."""
        first: dict[int, int] = {}
        # Small numbers, then powers of ten: some languages have a form for millions.
        for n in [*range(200), *(10**k for k in range(3, 10))]:
            first.setdefault(self._plural_of(n), n)
        return [first[form] for form in sorted(first)]

    def __reduce__(self) -> tuple[Callable[[str], Catalogue], tuple[str]]:
        return catalogue, (self.language,)  # a copy is the same language's catalogue

    def say(self, phrase: Phrase | Message) -> str:
        """The words of ``phrase``, or of a message without placeholders."""
        if isinstance(phrase, Message):
            return self._templates.get(phrase.id) or self.template(phrase)
        return self.format(phrase.message, phrase.args)

    def format(self, message: Message, args: Mapping[str, Argument]) -> str:
        """The words of ``message`` with ``args`` in its placeholders (what
        :meth:`say` does with a phrase's message and arguments). A missing
        argument raises ``KeyError``."""
        count = message.plural_by
        if count is None:
            form = self._forms.get(message.id)
            if form is None:
                form = self._forms[message.id] = _form(self.template(message), message.words)
        else:
            n = _number(args[count])
            key = (message.id, self._plural_of(n))
            form = self._plural_forms.get(key)
            if form is None:
                form = self._plural_forms[key] = _form(self.template(message, n), message.words)
        if form.get is None:  # no placeholders
            return form.text
        values = form.get(args)
        if len(form.fields) == 1:
            values = (values,)
        if form.words:  # the arguments that are words, worded in this language
            worded = list(values)
            for i in form.words:
                worded[i] = self._word(worded[i])
            values = tuple(worded)
        if form.plain:
            return form.text.format_map(dict(zip(form.fields, values, strict=True)))
        worded_text: str = form.text % values
        return worded_text

    def plainly(self, message: Message, args: Mapping[str, Argument]) -> str:
        """:meth:`format` the plain way: gettext's template and ``str.format_map``."""
        count = message.plural_by
        template = self.looked_up(message, 1 if count is None else _number(args[count]))
        return template.format_map({k: self._word(v) for k, v in args.items()})

    def _word(self, value: Argument) -> str | int:
        if isinstance(value, Message | Phrase):
            return self.say(value)
        if isinstance(value, Listing):
            return self.listing(value)
        return value

    def listing(self, items: Iterable[Argument]) -> str:
        """``a``, ``a and b``, ``a, b and c``: ``items`` worded as a list."""
        words = [str(self._word(item)) for item in items]
        if len(words) <= 1:
            return "".join(words)
        separator = self.template(LIST_SEPARATOR)
        return self.template(LIST_AND).format(items=separator.join(words[:-1]), last=words[-1])

    def table(self, ids: Iterable[str] | None = None) -> dict[str, object]:
        """This language's templates as JSON-ready data for a web page:
        ``{"language", "plural_forms", "messages": {id: text, or the list of
        forms of a plural}}``, for the messages ``ids`` (default: every message
        declared by the floors imported). An unknown id raises ``KeyError``."""
        known = messages()
        chosen = known if ids is None else {i: known[i] for i in ids}
        words: dict[str, str | list[str]] = {
            i: self.template(m) if m.plural_text is None else self.forms(m)
            for i, m in sorted(chosen.items())
        }
        return {"language": self.language, "plural_forms": self.plural_forms, "messages": words}


class _Form(NamedTuple):
    """A template made ready: for the % operator (``text`` with ``%s`` for each
    field, ``%%`` for a percent sign; ``get`` takes the fields' values from the
    arguments), or ``plain`` when it needs str.format (a format spec, say)."""

    text: str
    fields: tuple[str, ...]
    get: Callable[[Mapping[str, Argument]], Any] | None
    #: The positions of the fields that take words (:attr:`Message.words`).
    words: tuple[int, ...] = ()
    plain: bool = False


def _form(template: str, words: tuple[str, ...]) -> _Form:
    parts: list[str] = []
    fields: list[str] = []
    for literal, field, spec, conversion in Formatter().parse(template):
        parts.append(literal.replace("%", "%%"))
        if field is None:
            continue
        if spec or conversion or not field.isidentifier():
            names = tuple(f for _, f, _, _ in Formatter().parse(template) if f is not None)
            at = tuple(i for i, name in enumerate(names) if name in words)
            return _Form(template, names, itemgetter(*names), at, plain=True)
        parts.append("%s")
        fields.append(field)
    if not fields:
        return _Form(template.format(), (), None)  # "{{" and "}}" stand for braces
    at = tuple(i for i, name in enumerate(fields) if name in words)
    return _Form("".join(parts), tuple(fields), itemgetter(*fields), at)


def _number(value: Argument) -> int:
    if isinstance(value, int):
        return value
    raise TypeError(f"a plural's count must be a whole number, not {value!r}")


# -- languages -----------------------------------------------------------------------

_LOCALES: Final = "locales"
_TAG: Final = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*")


@cache
def languages() -> tuple[str, ...]:
    """The languages this installation speaks, as tags: English and every
    language whose compiled catalogue ships with the package."""
    found = {SOURCE_LANGUAGE}
    folder = resources.files(__name__).joinpath(_LOCALES)
    if folder.is_dir():
        for entry in folder.iterdir():
            if entry.joinpath("LC_MESSAGES", f"{DOMAIN}.mo").is_file():
                found.add(entry.name.replace("_", "-"))
    return tuple(sorted(found))


def _preferences(preferences: str | Iterable[str]) -> list[str]:
    """Tags in order of preference from a tag, a list of tags, an HTTP
    ``Accept-Language`` value (``de-AT,de;q=0.9``), a ``LANGUAGE`` value
    (``de:fr``) or a POSIX locale (``de_AT.UTF-8@euro``)."""
    items = [preferences] if isinstance(preferences, str) else list(preferences)[:32]
    weighted: list[tuple[float, str]] = []
    for item in items:
        if not isinstance(item, str):
            continue
        for part in re.split(r"[,:]", item[:256])[:32]:
            tag, _, weight = part.partition(";")
            quality = 1.0
            if weight.strip().startswith("q="):
                try:
                    quality = float(weight.strip()[2:])
                except ValueError:
                    quality = 0.0
            tag = tag.strip().split(".")[0].split("@")[0].replace("_", "-")
            if quality > 0 and _TAG.fullmatch(tag):
                weighted.append((quality, tag))
    weighted.sort(key=lambda pair: -pair[0])  # stable: equal weights keep their order
    return [tag for _, tag in weighted]


def negotiate(
    preferences: str | Iterable[str] | None, available: Iterable[str] | None = None
) -> str:
    """The language to speak for ``preferences``: the first preferred tag that
    is ``available`` (default :func:`languages`), else one of the same
    language (``de-AT`` → ``de``, ``pt`` → ``pt-BR``), else English. Never raises.

    >>> negotiate("de-AT", ["en", "de"])
    'de'
    >>> negotiate("pt", ["en", "pt-BR"])
    'pt-BR'
    >>> negotiate("fr-CA,de;q=0.8", ["en", "de"])
    'de'
    >>> negotiate("klingon", ["en", "de"])
    'en'
    """
    offered = list(languages() if available is None else available)
    by_lower = {tag.lower(): tag for tag in offered}
    for tag in _preferences(preferences or ()):
        lower = tag.lower()
        if lower in by_lower:
            return by_lower[lower]
        primary = lower.split("-")[0]
        if primary in by_lower:
            return by_lower[primary]
        for candidate in offered:
            if candidate.lower().split("-")[0] == primary:
                return candidate
    return SOURCE_LANGUAGE


def language_of_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: the first
    of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set
    (``C`` and ``POSIX`` mean English), negotiated."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            if value.split(".")[0] in ("C", "POSIX"):
                return SOURCE_LANGUAGE
            return negotiate(value)
    return SOURCE_LANGUAGE


def _load(language: str) -> Catalogue:
    """Read the compiled catalogue of ``language`` (a tag :func:`languages` lists)."""
    if language == SOURCE_LANGUAGE:
        return Catalogue(language, gettext.NullTranslations())
    folder = language.replace("-", "_")  # pt-BR is in pt_BR
    path = resources.files(__name__).joinpath(_LOCALES, folder, "LC_MESSAGES", f"{DOMAIN}.mo")
    with path.open("rb") as compiled:
        return Catalogue(language, gettext.GNUTranslations(compiled))


def catalogue(locale: str | Iterable[str] | None = None) -> Catalogue:
    """The catalogue of the language ``locale`` asks for (see :func:`negotiate`;
    None: English), loaded once, at its first use. A tag :func:`negotiate`
    answers (``"de"``, ``"pt-BR"``) is found by one dictionary look-up."""
    if isinstance(locale, str):
        found = _BY_TAG.get(locale)
        if found is not None:
            return found
    language = negotiate(locale)
    found = _BY_TAG.get(language)
    if found is None:
        found = _BY_TAG[language] = _load(language)
    return found
