"""The site speaks Persian, Czech, Portuguese and French, and no catalogue entry stays English.

The catalogues live in ``locale/<lang>/LC_MESSAGES/django.po`` and are committed compiled
(``django.mo``), so the site works translated where gettext is not installed. Words the game
engines put in their views and actions are translated through each game's presentation
(``games/catalog/<game>/words.py``, then the shared ``games/labels.py``).
"""

from __future__ import annotations

import gettext
import random
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import FriendRequest, Notification
from accounts.notifications import notify
from accounts.services import friend_request_send, friendship_create
from games import services
from games.catalog import registry as catalog
from games.engines import registry
from games.labels import WORDS
from games.models import Seat
from games.templatetags.boards import HIDDEN_KEYS

LOCALE = Path(settings.LOCALE_PATHS[0])
LANGUAGES = ["fa", "cs", "pt", "fr"]

# Strings from our own catalogues (not from Django's or allauth's), one set per language.
EXPECTED = {
    "fa": {
        "home_heading": "دوستانتان را با بلوف فریب دهید، روزی یک حرکت.",
        "sign_up": "ثبت‌نام",
        "home_sign_up": "ثبت‌نام کنید",  # the home page's own button (msgctxt "home")
        "footer": "Fibbers — بازی‌های کارتی بلوف با دوستان.",
        "board_heading": "میز",
        "penalty": "جریمه",
        "offer": "پیشنهاد کارت",
    },
    "cs": {
        "home_heading": "Oblafněte přátele, jeden tah denně.",
        "sign_up": "Zaregistrovat se",
        "home_sign_up": "Zaregistrujte se",  # the home page's own button (msgctxt "home")
        "footer": "Fibbers — karetní hry o blafování s přáteli.",
        "board_heading": "Stůl",
        "penalty": "Trest",
        "offer": "Nabídnout",
    },
    "pt": {
        "home_heading": "Blefe com os amigos, uma jogada por dia.",
        "sign_up": "Cadastrar-se",
        "home_sign_up": "Cadastre-se",  # the home page's own button (msgctxt "home")
        "footer": "Fibbers — jogos de cartas e blefe com amigos.",
        "board_heading": "A mesa",
        "penalty": "Penalização",
        "offer": "Oferecer",
    },
    "fr": {
        "home_heading": "Bluffez vos amis, un coup par jour.",
        "sign_up": "S’inscrire",
        "home_sign_up": "S’inscrire",  # the home page's own button (msgctxt "home")
        "footer": "Fibbers — jeux de cartes et de bluff entre amis.",
        "board_heading": "La table",
        "penalty": "Pénalité",
        "offer": "Offrir",
    },
}


def _speaking(client: Client, lang: str) -> Client:
    answer = client.post("/i18n/setlang/", {"language": lang, "next": "/"})
    assert answer.status_code == 302
    return client


def _html_tag(html: str) -> str:
    match = re.search(r"<html[^>]*>", html)
    assert match, "no <html> tag"
    return match.group(0)


# --- pages -----------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_page_speaks_the_chosen_language(client, lang):
    html = _speaking(client, lang).get("/").content.decode()
    expected = EXPECTED[lang]
    assert expected["home_heading"] in html
    assert expected["sign_up"] in html
    assert f">{expected['home_sign_up']}</a>" in html
    assert "Bluff your friends, one move a day." not in html
    direction = "rtl" if lang == "fa" else "ltr"
    assert f'lang="{lang}"' in _html_tag(html)
    assert f'dir="{direction}"' in _html_tag(html)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_login_page_speaks_the_chosen_language(client, lang):
    html = _speaking(client, lang).get(reverse("account_login")).content.decode()
    expected = EXPECTED[lang]
    assert expected["sign_up"] in html
    assert expected["footer"] in html
    assert "Fibbers — bluffing card games with friends." not in html
    direction = "rtl" if lang == "fa" else "ltr"
    assert f'dir="{direction}"' in _html_tag(html)


@pytest.mark.django_db
def test_english_is_still_the_default(client):
    html = client.get("/").content.decode()
    assert "Bluff your friends, one move a day." in html
    assert 'dir="ltr"' in _html_tag(html)


@pytest.fixture
def started(alice, bob, carol):
    """Starts a 3-seat table of ``engine``, alice/bob/carol in seats 0/1/2 (as in tests/games)."""

    def start(engine: str):
        friendship_create(alice, bob)
        friendship_create(alice, carol)
        friendship_create(bob, carol)
        game = services.game_create(alice, engine=engine, seats=3, invite=["bob", "carol"])
        services.game_join(bob, game.pk)
        services.game_join(carol, game.pk)
        services.game_start(alice, game.pk)
        game.refresh_from_db()
        return game

    return start


def _active_user(game):
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    return Seat.objects.get(game=game, index=seat).user


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_table_shows_engine_words_and_moves_in_the_chosen_language(started, lang):
    game = started("cockroach-poker-royal")
    client = Client()
    client.force_login(_active_user(game))
    html = _speaking(client, lang).get(reverse("games:table", args=[game.pk])).content.decode()
    expected = EXPECTED[lang]
    assert expected["board_heading"] in html
    assert f">{expected['penalty']}<" in html  # a view key on the board
    assert f">{expected['offer']}<" in html  # an action type in the move forms
    assert ">Penalty<" not in html
    assert ">Offer<" not in html
    if lang == "fa":
        assert 'dir="rtl"' in _html_tag(html)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("engine", "label"),
    [
        ("cockroach-poker-royal", "Cartes en main"),
        ("mogel-motte", "Défausse"),
        ("imperador", "Empereur"),
    ],
)
def test_every_engine_board_is_translated(started, engine, label):
    game = started(engine)
    client = Client()
    client.force_login(_active_user(game))
    html = _speaking(client, "fr").get(reverse("games:table", args=[game.pk])).content.decode()
    assert f">{label}<" in html


def test_a_word_is_a_pure_function_of_its_key():
    word = catalog.get("cockroach-poker-royal").word
    with translation.override("fr"):
        assert word("stink_bug") == "punaise"
        assert word("stink_bug") == word("stink_bug")
        assert word("no_such_word") == "no such word"
        assert word("no_such_word", "Own label") == "Own label"
    with translation.override("en"):
        assert word("stink_bug") == "stink bug"


# --- catalogues ------------------------------------------------------------------------------


def _unquote(text: str) -> str:
    body = text.strip()[1:-1]
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), body)


def _entries(path: Path) -> list[dict]:
    """A tiny .po reader: msgctxt, msgid, msgid_plural, msgstr / msgstr[n] and flags."""
    entries: list[dict] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.strip().splitlines() if not line.startswith("#~")]
        if not any(line.startswith("msgid ") for line in lines):
            continue
        entry: dict = {"flags": [], "msgstr": {}}
        field: tuple[str, int | None] | None = None
        for line in lines:
            if line.startswith("#,"):
                entry["flags"] += [flag.strip() for flag in line[2:].split(",")]
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                name, index = field  # type: ignore[misc]
                if name == "msgstr":
                    entry["msgstr"][index] += _unquote(line)
                else:
                    entry[name] += _unquote(line)
            else:
                keyword, _, value = line.partition(" ")
                plural = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
                if plural:
                    field = ("msgstr", int(plural.group(1)))
                    entry["msgstr"][field[1]] = _unquote(value)
                elif keyword == "msgstr":
                    field = ("msgstr", 0)
                    entry["msgstr"][0] = _unquote(value)
                else:
                    field = (keyword, None)
                    entry[keyword] = _unquote(value)
        entries.append(entry)
    return entries


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_entry_is_translated_and_reviewed(lang):
    entries = _entries(LOCALE / lang / "LC_MESSAGES" / "django.po")
    header, messages = entries[0], entries[1:]
    assert header["msgid"] == ""
    assert "fuzzy" not in header["flags"]
    assert len(messages) > 400
    untranslated = [e["msgid"] for e in messages if not all(e["msgstr"].values())]
    fuzzy = [e["msgid"] for e in messages if "fuzzy" in e["flags"]]
    assert untranslated == [], f"untranslated in {lang}: {untranslated}"
    assert fuzzy == [], f"fuzzy in {lang}: {fuzzy}"
    nplurals = int(re.search(r"nplurals=(\d+)", header["msgstr"][0]).group(1))
    for entry in messages:
        wanted = set(PLACEHOLDER.findall(entry["msgid"]))
        if "msgid_plural" not in entry:
            found = set(PLACEHOLDER.findall(entry["msgstr"][0]))
            assert found == wanted, (lang, entry["msgid"], entry["msgstr"][0])
            continue
        # A plural form may leave out the count ("one card"), never invent a placeholder.
        assert len(entry["msgstr"]) == nplurals, entry["msgid"]
        wanted |= set(PLACEHOLDER.findall(entry["msgid_plural"]))
        for text in entry["msgstr"].values():
            assert set(PLACEHOLDER.findall(text)) <= wanted, (lang, entry["msgid"], text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_committed_compiled_catalogue_matches_the_po_file(lang):
    folder = LOCALE / lang / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    for entry in _entries(folder / "django.po")[1:]:
        key = entry["msgid"]
        if "msgctxt" in entry:
            key = f"{entry['msgctxt']}\x04{key}"
        if "msgid_plural" in entry:
            for index, text in entry["msgstr"].items():
                assert catalogue.get((key, index)) == text, f"recompile {lang}: {key!r}"
        else:
            assert catalogue.get(key) == entry["msgstr"][0], f"recompile {lang}: {key!r}"


def test_every_game_word_has_a_catalogue_entry():
    """No game word was added without running makemessages afterwards."""
    entries = _entries(LOCALE / "fr" / "LC_MESSAGES" / "django.po")
    game_words = {e["msgid"] for e in entries if e.get("msgctxt") == "game"}
    everything = [WORDS, *(p.words for p in catalog.PRESENTATIONS.values())]
    with translation.override("en"):
        english = {str(text) for words in everything for text in words.values()}
    assert english <= game_words, sorted(english - game_words)


# --- engine words ------------------------------------------------------------------------------

IDENTIFIER = re.compile(r"[a-z][a-z_]+")


def _engine_words(node, found: set[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in HIDDEN_KEYS:
                continue
            found.add(key)
            _engine_words(value, found)
    elif isinstance(node, list):
        for value in node:
            _engine_words(value, found)
    elif isinstance(node, str) and IDENTIFIER.fullmatch(node):
        found.add(node)


@pytest.mark.parametrize("slug", sorted(registry.ENGINES))
def test_every_word_an_engine_shows_has_a_translation(slug):
    """Keys, identifier-like values and action types seen while bots play a few games."""
    engine = registry.ENGINES[slug]
    found: set[str] = set()
    for seed in range(3):
        state = engine.setup(4, {}, seed)
        rng = random.Random(seed)
        for _ in range(400):
            if engine.result(state) is not None:
                break
            for seat in [None, *range(4)]:
                _engine_words(engine.view(state, seat), found)
            waiting = engine.waiting_for(state)
            seat = rng.choice(list(waiting.seats))
            for action in engine.legal_actions(state, seat):
                found.add(action["type"])
                _engine_words({k: v for k, v in action.items() if k != "type"}, found)
            state, _ = engine.apply(state, seat, engine.bot_action(state, seat, rng))
        for seat in [None, 0]:
            _engine_words(engine.view(state, seat), found)
    missing = sorted(found - set(WORDS) - set(catalog.get(slug).words))
    assert missing == [], f"add these to the game's words.py (and translate them): {missing}"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        # Czech declines after «před»: "před 5 minutami", never "5 minut zpět"
        ("cs", "před 5\xa0minutami"),
        ("fr", "il y a 5\xa0minutes"),
        # Django's own Portuguese says "há 5 minutos atrás"
        ("pt", "há 5 minutos<"),
        ("fa", "5 دقیقه پیش"),
    ],
)
def test_how_long_ago_is_said_in_each_languages_own_grammar(make_user, lang, said):
    alice, bob = make_user("alice"), make_user("bob")
    client = Client()
    client.force_login(alice)
    _speaking(client, lang)
    notify(alice, Notification.Kind.INVITATION, "hello", "/games/")
    _outcome, request = friend_request_send(alice, bob)
    five_minutes_ago = timezone.now() - timedelta(minutes=5, seconds=10)
    Notification.objects.update(created_at=five_minutes_ago)
    FriendRequest.objects.filter(pk=request.pk).update(created_at=five_minutes_ago)

    notices = client.get(reverse("notifications")).content.decode()
    friends = client.get(reverse("friends")).content.decode()

    assert said in notices
    assert said.rstrip("<") in friends
    assert "atrás" not in notices + friends and "zpět" not in notices


def test_a_persian_comma_in_time_left_is_followed_by_a_space():
    # Django's own Persian joins "23 ساعت،56 دقیقه" (My games, the table's clock)
    later = timezone.now() + timedelta(hours=23, minutes=56, seconds=30)
    with translation.override("fa"):
        said = Template("{{ at|timeuntil }}").render(Context({"at": later}))
    assert said == "23\xa0ساعت، 56\xa0دقیقه"


@pytest.mark.django_db
def test_a_label_in_french_takes_a_narrow_space_before_its_colon(make_user):
    """ "Tranche annoncée: 7–8": every other French string spaces its colon (U+202F)."""
    users = [make_user(name) for name in ("ana", "ben", "cy")]
    for i, a in enumerate(users):
        for b in users[i + 1 :]:
            friendship_create(a, b)
    game = services.game_create(users[0], engine="imperador", seats=3, invite=["ben", "cy"])
    for user in users[1:]:
        services.game_join(user, game.pk)
    game = services.game_start(users[0], game.pk)
    game.refresh_from_db()
    emperor = game.state["emperor"]
    engine = registry.get("imperador")
    announce = engine.legal_actions(game.state, emperor)[0]
    services.act(users[emperor], game.pk, game.version_for(emperor), announce)
    client = Client()
    client.force_login(users[0])
    html = _speaking(client, "fr").get(reverse("games:table", args=[game.pk])).content.decode()
    assert "Tranche annoncée\u202f:" in html
    assert "Tranche annoncée:" not in html


def _api_move(game, action: dict, user=None, **headers: str):
    """A move through the API with the token of ``user`` (default: the seat the game waits
    on), as a script sends it; the answer."""
    from accounts.services import api_token_create

    user = user or _active_user(game)
    _token, raw = api_token_create(user, "script")
    api = Client(headers={"Authorization": f"Bearer {raw}", **headers})
    seat = Seat.objects.get(game=game, user=user).index
    return api.post(
        f"/api/games/{game.pk}/actions",
        {"version": game.version_for(seat), "action": action},
        content_type="application/json",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_engines_refusal_speaks_the_players_language_with_its_values(started, lang):
    """The engines' messages stayed English in every language (robustness review,
    2026-12-01): an API client asking in French was told "'fly' is not an action in this
    game." The engine marks its template; the service says it in the reader's language."""
    game = started("mogel-motte")

    answer = _api_move(game, {"type": "fly"}, **{"Accept-Language": lang})

    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "unknown_action"
    english = "'fly' is not an action in this game."
    with translation.override(lang):
        said = translation.gettext("'%(kind)s' is not an action in this game.") % {"kind": "fly"}
    assert said != english  # the catalogue has it
    assert body["error"] == said
    assert "fly" in body["error"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_games_own_words_in_a_refusal_are_the_readers(started, lang):
    """A refusal filled with one of the engine's words said it in English inside the
    translated sentence: « Aucune fenêtre de réaction « slap » n’est ouverte. » (review)."""
    game = started("mogel-motte")  # no window is open at the start

    body = _api_move(game, {"type": "slap"}, **{"Accept-Language": lang}).json()

    with translation.override(lang):
        slap = catalog.get("mogel-motte").word("slap")
    assert body["code"] == "no_window"
    assert slap != "slap" and slap in body["error"]
    assert "slap" not in body["error"]


@pytest.mark.django_db
def test_an_api_token_speaks_its_players_own_language(started):
    """A script with a French player's token, sending no Accept-Language, was answered in
    English: the session's middleware never sees a token (review, 2026-12-01)."""
    game = started("mogel-motte")
    user = _active_user(game)
    user.language = "fr"
    user.save(update_fields=["language"])

    body = _api_move(game, {"type": "fly"}, user).json()

    with translation.override("fr"):
        said = translation.gettext("'%(kind)s' is not an action in this game.") % {"kind": "fly"}
    assert body["error"] == said != "'fly' is not an action in this game."


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_password_too_short_is_refused_in_the_readers_language(lang):
    """Django 5.2 reworded its minimum length message and its Persian and Czech catalogues
    kept the old words: signing up in Persian showed it in English (social review)."""
    from django.contrib.auth import password_validation
    from django.core.exceptions import ValidationError

    with translation.override(lang), pytest.raises(ValidationError) as refused:
        password_validation.validate_password("123")
    said = " ".join(refused.value.messages)
    assert "too short" not in said and "8" in said
    if lang == "pt":  # Django's own "pt" is European; the site's Portuguese is Brazilian
        assert "palavra-passe" not in said.lower() and "senha" in said


EUROPEAN = re.compile(r"palavra-passe|utilizador|registo|ecrã|enviámos|contacte", re.IGNORECASE)


@pytest.mark.django_db
def test_the_sign_in_pages_speak_brazilian_portuguese(client):
    """Django and allauth read "pt" as European Portuguese: the sign-in pages said
    "Palavra-passe" and "Nome de utilizador" on a Brazilian site (diff review)."""
    _speaking(client, "pt")
    pages = [
        client.get(reverse(name)).content.decode()
        for name in ("account_login", "account_signup", "account_reset_password")
    ]
    pages.append(
        client.post(
            reverse("account_signup"),
            {"email": "not-an-email", "username": "x", "password1": "1", "password2": "2"},
        ).content.decode()
    )
    for html in pages:
        assert not EUROPEAN.search(html), EUROPEAN.search(html)
    assert "senha" in pages[0].lower()


@pytest.mark.django_db
def test_allauths_emails_speak_brazilian_portuguese(client, make_user, mailoutbox):
    """The password reset and "account already exists" emails came from allauth's European
    catalogue ("Está a receber este email … palavra-passe"): ours lacked their texts (mail
    review)."""
    make_user("carol")
    _speaking(client, "pt")
    client.post(reverse("account_reset_password"), {"email": "carol@example.com"})
    client.post(
        reverse("account_signup"),
        {
            "email": "carol@example.com",
            "username": "carol2",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
        },
    )
    assert len(mailoutbox) == 2
    for message in mailoutbox:
        assert not EUROPEAN.search(message.body), EUROPEAN.search(message.body)
        assert "Você está recebendo este e-mail" in message.body


@pytest.mark.django_db
def test_the_admin_speaks_brazilian_portuguese(admin_client):
    """The admin's "pt" is European too ("Terminar sessão", "Alterar palavra-passe")."""
    _speaking(admin_client, "pt")
    for url in ("/admin/", "/admin/accounts/user/", "/admin/password_change/"):
        html = admin_client.get(url).content.decode()
        assert not EUROPEAN.search(html), (url, EUROPEAN.search(html))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "label", "refused"),
    [
        ("fr", "Nom d’utilisateur ou e-mail", "Le nom d’utilisateur et/ou le mot de passe"),
        ("pt", "Usuário ou e-mail", None),
    ],
)
def test_the_sign_in_form_names_the_username_one_way(make_user, language, label, refused):
    """allauth's own words said 'Identifiant' and 'pseudo' (fr) or 'Login' (pt) beside the
    site's 'nom d’utilisateur' / 'usuário': one word per thing, from the site's catalogue."""
    make_user("zoe")
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    assert label in client.get(reverse("account_login")).content.decode()
    if refused:
        answer = client.post(reverse("account_login"), {"login": "zoe", "password": "wrong-one"})
        assert refused in answer.content.decode()


@pytest.mark.django_db
def test_the_czech_account_pages_say_allauths_words_rightly(make_user):
    """allauth's Czech read "E-mailové adresa" and labelled the sign-in field "Přihlášení"
    (newcomer review)."""
    login = Client()
    login.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    form = login.get(reverse("account_login")).content.decode()
    assert '<label for="id_login">Uživatelské jméno nebo e-mail:</label>' in form
    user = make_user("zoe")
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    html = client.get(reverse("account_email")).content.decode()
    assert "E-mailové adresa" not in html
