"""Message catalogs: the active language, Czech plurals and terms, the browser's export, and that every
message the code speaks is translated."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import obelisk
from obelisk.core import codec, i18n

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import messages  # noqa: E402


def test_english_is_the_message_id_itself() -> None:
    tr = i18n.domain("valley")
    assert tr("buy {card} for {cost}", card="Ankh", cost=3) == "buy Ankh for 3"
    assert tr.n("{n} card", "{n} cards", 1) == "1 card"
    assert tr.n("{n} card", "{n} cards", 5) == "5 cards"
    assert tr.term("card", "Ankh") == "Ankh"


def test_language_applies_inside_the_block_only() -> None:
    assert i18n.current_language() == "en"
    with i18n.language("cs"):
        assert i18n.current_language() == "cs"
    assert i18n.current_language() == "en"


def repr_short(value: object) -> str:
    return codec.describe(value)


@pytest.mark.parametrize("bad", ["de", "", "CS", None, 3, "x" * 100, 10**5000], ids=repr_short)
def test_unknown_language_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ValueError, match="unknown language .*choose one of: en, cs") as refused:
        with i18n.language(bad):  # type: ignore[arg-type]
            pass
    assert i18n.current_language() == "en"
    shown = str(refused.value).removeprefix("unknown language ").partition(";")[0]
    assert shown == codec.describe(bad) and len(shown) <= 60


@pytest.mark.parametrize("header, lang", [
    ("cs-CZ,cs;q=0.9,en;q=0.8", "cs"), ("en-GB,en;q=0.9", "en"), ("de-DE", "en"), ("", "en"), (None, "en"),
    ("de;q=0.9, cs;q=0.5", "cs"), ("en;q=0.2, cs;q=0.8", "cs"), ("cs;q=bad, en", "en"),
])
def test_negotiate_picks_the_best_known_language(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


def test_czech_plural_categories_match_the_browsers_names() -> None:
    assert i18n.plural_categories("cs") == ["one", "few", "other"]
    assert i18n.plural_categories("en") == ["one", "other"]


def test_czech_catalog_is_used_with_three_plural_forms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cs.po").write_text(
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);\\n"\n'
        '"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "buy {card}"\nmsgstr "koupit {card}"\n\n'
        'msgid "{n} card"\nmsgid_plural "{n} cards"\nmsgstr[0] "{n} karta"\nmsgstr[1] "{n} karty"\nmsgstr[2] "{n} karet"\n\n'
        'msgctxt "card"\nmsgid "Ankh"\nmsgstr "Anch"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "catalog_path", lambda name: tmp_path if name == "zz" else tmp_path / "none")
    i18n._chain.cache_clear()
    try:
        tr = i18n.Domain("zz")
        with i18n.language("cs"):
            assert tr("buy {card}", card=tr.term("card", "Ankh")) == "koupit Anch"
            assert [tr.n("{n} card", "{n} cards", n) for n in (1, 3, 5, 22)] == ["1 karta", "3 karty", "5 karet", "22 karet"]
            assert tr("not in the catalog") == "not in the catalog"
        assert tr("buy {card}", card="Ankh") == "buy Ankh"
        exported = i18n.messages("zz", "cs")
        assert exported["messages"] == {"buy {card}": "koupit {card}", "{n} card": ["{n} karta", "{n} karty", "{n} karet"]}
        assert exported["terms"] == {"card\u0004Ankh": "Anch"}
        assert exported["plural"] == ["one", "few", "other"]
    finally:
        i18n._chain.cache_clear()


def test_an_action_label_is_a_button_and_in_the_log_its_log_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                  ) -> None:
    (tmp_path / "cs.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "buy {card}"\nmsgstr "koupit {card}"\n\n'
        'msgctxt "log"\nmsgid "buy {card}"\nmsgstr "koupena karta {card}"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "catalog_path", lambda name: tmp_path if name == "zz" else tmp_path / "none")
    i18n._chain.cache_clear()
    try:
        tr = i18n.Domain("zz")
        with i18n.language("cs"):
            assert tr.action("buy {card}", card="Urna") == "koupit Urna"
            with i18n.telling():
                assert tr.action("buy {card}", card="Urna") == "koupena karta Urna"
                assert tr("buy {card}", card="Urna") == "koupit Urna"  # only labels have a log form
            assert tr.action("buy {card}", card="Urna") == "koupit Urna"
        with i18n.telling():
            assert tr.action("buy {card}", card="Urn") == "buy Urn"  # English: one text for both
    finally:
        i18n._chain.cache_clear()


def test_the_check_wants_a_log_form_of_every_action_label(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "labels.py"
    source.write_text('tr.action("sell {card}", card=name)\n', encoding="utf-8")
    monkeypatch.setattr(messages, "ROOT", tmp_path)
    found = messages.Messages()
    messages._python(source, found)
    monkeypatch.undo()
    assert found.plain == {"sell {card}": "labels.py:1"} and found.terms == {("log", "sell {card}"): "labels.py:1"}
    problems = messages.check(i18n.UI_DOMAIN, "cs", found)
    assert "obelisk/locale/cs.po: 'sell {card}' is missing (used at labels.py:1)" in problems
    assert sum("'sell {card}' is missing" in p for p in problems) == 2  # the button and the log form


def test_every_message_is_translated() -> None:
    problems = []
    for name in [i18n.UI_DOMAIN, *messages.games()]:
        found = messages.extract(name)
        for lang in i18n.LANGUAGES[1:]:
            problems += messages.check(name, lang, found)
    assert not problems, "\n".join(problems)


def test_every_game_speaks_its_name_description_and_options() -> None:
    """What the pages and the terminal show of a registered game is in its catalog, whatever its data says."""
    for name in messages.games():
        info = obelisk.core.game_class(name).info
        terms = messages.extract(name).terms
        assert {("game", info.name), ("game", info.description)} <= set(terms)
        for option in info.options:
            assert ("option", option.description) in terms
            assert {("option", text) for text in option.texts()} <= set(terms)
            assert option.label and len(option.value_labels) == len(option.allowed or ())
    assert ("option", "The richest of them are eaten") in messages.extract("cleopatra").terms
    assert ("option", "richest") not in messages.extract("cleopatra").terms


def test_the_check_reports_missing_stale_and_mismatched_messages() -> None:
    found = messages.Messages(plain={"a message nobody translated {x}": "here:1"}, errors=["there:2: a message id must be a literal string"])
    problems = messages.check(i18n.UI_DOMAIN, "cs", found)
    assert "there:2: a message id must be a literal string" in problems
    assert any("'a message nobody translated {x}' is missing (used at here:1)" in p for p in problems)


def test_translated_attributes_of_the_pages_are_extracted() -> None:
    found = messages.extract(i18n.UI_DOMAIN)
    assert found.plain["Status"].startswith("obelisk/server/static/table.html")  # data-i18n-aria-label
    assert "Your name" in found.plain  # data-i18n


def test_update_writes_no_catalog_for_a_domain_with_nothing_to_say(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                   ) -> None:
    monkeypatch.setattr(messages, "catalog_path", lambda name: tmp_path / name)
    assert messages.update("quiet", "cs", messages.Messages()) == 0
    assert not (tmp_path / "quiet").exists()
    assert messages.update("chatty", "cs", messages.Messages(plain={"hello": "here:1"})) == 1
    assert (tmp_path / "chatty" / "cs.po").is_file()
