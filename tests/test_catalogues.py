"""The catalogues are complete, follow locale/GLOSSARY.md and speak one variety of each language.

- every string marked in the source (Python and templates, extracted the way ``makemessages``
  does it) has an entry in every catalogue;
- translation functions are imported under names xgettext knows (``_lazy`` or ``N_`` are not
  extracted, so their strings silently stay English);
- the game words (``msgctxt "game"``) are the glossary's, and no catalogue uses a word the
  glossary rules out (the rules' own words win; Portuguese is Brazilian);
- ``msgfmt --check-format`` accepts every catalogue.

Extraction and the format check need GNU gettext (installed in CI); without it they are skipped
locally and fail in CI.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import templatize

from tests.test_i18n import LANGUAGES, _entries

ROOT = Path(settings.BASE_DIR)
LOCALE = Path(settings.LOCALE_PATHS[0])
GLOSSARY = LOCALE / "GLOSSARY.md"

# The keywords Django's makemessages passes to xgettext for Python sources and templates.
KEYWORDS = [
    "--keyword=gettext_noop",
    "--keyword=gettext_lazy",
    "--keyword=ngettext_lazy:1,2",
    "--keyword=pgettext:1c,2",
    "--keyword=npgettext:1c,2,3",
    "--keyword=pgettext_lazy:1c,2",
    "--keyword=npgettext_lazy:1c,2,3",
]
# Names xgettext extracts from Python (its defaults plus the keywords above).
KNOWN_NAMES = {
    "_",
    "gettext",
    "gettext_noop",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
}
SKIPPED_DIRS = {".venv", "locale", "static", "node_modules", "__pycache__"}


def _gettext_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} (GNU gettext) is not installed")
        pytest.skip(f"{name} (GNU gettext) is not installed")
    return path


def _sources(*suffixes: str) -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if any(part in SKIPPED_DIRS or part.startswith(".") for part in parts[:-1]):
            continue
        if path.suffix in suffixes and path.is_file():
            found.append(path)
    return found


def _message_keys(pot: str, tmp_path: Path) -> set[tuple[str | None, str]]:
    file = tmp_path / "extracted.pot"
    file.write_text(pot, encoding="utf-8")
    return {(e.get("msgctxt"), e["msgid"]) for e in _entries(file) if e["msgid"]}


def _extract(tmp_path: Path) -> set[tuple[str | None, str]]:
    """(context, msgid) of every string marked in the source, as makemessages finds them."""
    xgettext = _gettext_tool("xgettext")
    # Templates become Python through Django's templatize, as makemessages does it.
    templated = tmp_path / "templates"
    inputs = [str(path) for path in _sources(".py")]
    for number, template in enumerate(_sources(".html", ".txt")):
        if "templates" not in template.relative_to(ROOT).parts:
            continue
        target = templated / f"{number}.py"
        target.parent.mkdir(exist_ok=True)
        target.write_text(
            templatize(template.read_text(encoding="utf-8"), origin=str(template)),
            encoding="utf-8",
        )
        inputs.append(str(target))
    listing = tmp_path / "files.txt"
    listing.write_text("\n".join(inputs) + "\n", encoding="utf-8")
    result = subprocess.run(
        [
            xgettext,
            "--language=Python",
            "--from-code=UTF-8",
            "--no-location",
            "--output=-",
            f"--files-from={listing}",
            *KEYWORDS,
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return _message_keys(result.stdout, tmp_path)


def _catalogue(lang: str) -> dict[tuple[str | None, str], dict]:
    entries = _entries(LOCALE / lang / "LC_MESSAGES" / "django.po")[1:]
    return {(e.get("msgctxt"), e["msgid"]): e for e in entries}


# --- (a) nothing marked in the source is missing from a catalogue ----------------------------


def test_every_source_string_is_in_every_catalogue(tmp_path):
    marked = _extract(tmp_path)
    assert len(marked) > 400, "extraction found too little; is xgettext working?"
    for lang in LANGUAGES:
        missing = sorted(marked - set(_catalogue(lang)), key=str)
        assert missing == [], (
            f"{lang}: run makemessages (--no-location --no-obsolete) and translate: {missing}"
        )


IMPORT = re.compile(r"from django\.utils\.translation import ([^\n(]+|\([^)]*\))")


def test_translation_functions_keep_names_xgettext_knows():
    wrong = []
    for path in _sources(".py"):
        for names in IMPORT.findall(path.read_text(encoding="utf-8")):
            for item in names.strip("()").split(","):
                original, _, alias = (part.strip() for part in item.partition(" as "))
                if not alias or "gettext" not in original:
                    continue
                singular = original in {"gettext", "gettext_lazy", "gettext_noop"}
                if alias not in KNOWN_NAMES or (alias == "_" and not singular):
                    wrong.append(f"{path.relative_to(ROOT)}: {original} as {alias}")
    assert wrong == [], f"xgettext does not extract strings marked with these names: {wrong}"


# --- (b) the glossary's words ------------------------------------------------------------------


def _tables() -> list[list[dict[str, str]]]:
    """Every markdown table of GLOSSARY.md as rows of {header: cell}."""
    tables: list[list[dict[str, str]]] = []
    header: list[str] | None = None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            tables.append([])
        elif not all(set(cell) <= set("-: ") for cell in cells):
            tables[-1].append(dict(zip(header, cells, strict=True)))
    return tables


def _terms() -> list[dict[str, str]]:
    return next(t for t in _tables() if t and "msgid" in t[0])


def _never() -> list[dict[str, str]]:
    return next(t for t in _tables() if t and "never write" in t[0])


def test_the_glossary_is_machine_readable():
    terms, never = _terms(), _never()
    assert len(terms) >= 40
    assert {row["language"] for row in never} <= set(LANGUAGES)
    game_words = set().union(*(_catalogue(lang) for lang in LANGUAGES))
    for row in terms:
        if row["msgid"]:
            assert ("game", row["msgid"]) in game_words, f"no game word {row['msgid']!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_game_words_are_the_glossarys(lang):
    catalogue = _catalogue(lang)
    wrong = []
    for row in _terms():
        wanted = row[lang]
        if not row["msgid"] or wanted in ("", "—"):
            continue
        found = catalogue[("game", row["msgid"])]["msgstr"][0]
        if found != wanted:
            wrong.append(f"{row['msgid']!r}: {found!r}, glossary says {wanted!r}")
    assert wrong == [], f"{lang}: {wrong}"


def _translations(lang: str):
    for (_context, msgid), entry in _catalogue(lang).items():
        for text in entry["msgstr"].values():
            yield msgid, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalogue_uses_a_word_the_glossary_rules_out(lang):
    wrong = []
    for row in _never():
        if row["language"] != lang:
            continue
        word = re.compile(rf"(?<!\w){re.escape(row['never write'])}", re.IGNORECASE)
        wrong += [
            f"{row['never write']!r} in {text!r} (write {row['write instead']})"
            for msgid, text in _translations(lang)
            if word.search(text)
        ]
    assert wrong == [], f"{lang}: {wrong}"


# --- (c) Portuguese is Brazilian ----------------------------------------------------------------

EUROPEAN = re.compile(
    r"(?<!\w)(utilizador\w*|registos?|tem de|têm de|tenho de|ecrã\w*|palavra-passe|batota\w*"
    r"|connosco|equipa\b|portátil|(por|para|a|de) si\b(?! mesm))",
    re.IGNORECASE,
)
# Present continuous the European way ("está a jogar"); Brazilian says "está jogando".
CONTINUOUS = re.compile(r"(?<!\w)(est(á|ão|ou|ava|ar)|fic(a|am|ar)) a \w+(ar|er|ir)\b", re.I)


def test_portuguese_is_brazilian():
    wrong = [
        text
        for _msgid, text in _translations("pt")
        if EUROPEAN.search(text) or CONTINUOUS.search(text)
    ]
    assert wrong == [], f"European Portuguese in pt: {wrong}"


def test_portuguese_says_voce_not_si():
    """«você» and the European «si» are never mixed: there is no «si» at all."""
    wrong = [text for _msgid, text in _translations("pt") if re.search(r"(?<!\w)si(?!\w)", text)]
    wrong = [text for text in wrong if not re.search(r"(?<!\w)si mesm[oa]", text)]
    assert wrong == [], wrong


def test_persian_writes_numbers_in_one_digit_system():
    """Every number filled in at run time (times left, counts, scores) is in Latin digits, so
    the catalogue writes its own numbers that way too: «۲۴ ساعت» beside «23 ساعت» read as two
    systems on one page."""
    persian_digits = re.compile("[\u06f0-\u06f9]")
    wrong = [text for _msgid, text in _translations("fa") if persian_digits.search(text)]
    assert wrong == [], wrong


# --- the existing format check -------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_msgfmt_accepts_the_catalogue(lang):
    msgfmt = _gettext_tool("msgfmt")
    path = LOCALE / lang / "LC_MESSAGES" / "django.po"
    result = subprocess.run(
        [msgfmt, "--check-format", "--check-header", "-o", os.devnull, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_french_punctuation_takes_narrow_no_break_spaces():
    wrong = []
    for _msgid, text in _translations("fr"):
        if re.search(r"[ \u00a0][:;!?»]|«[ \u00a0]", text) or re.search(r"\w[;!?»]|«\w", text):
            wrong.append(text)
    assert wrong == [], wrong
