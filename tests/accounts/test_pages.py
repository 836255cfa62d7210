import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_home_page_renders_with_the_language_switcher(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'dir="ltr"' in body
    assert 'name="language"' in body


@pytest.mark.django_db
def test_persian_switches_the_page_to_right_to_left(client):
    response = client.post(reverse("set_language"), {"language": "fa", "next": "/"})
    assert response.status_code == 302
    body = client.get(reverse("home")).content.decode()
    assert 'lang="fa"' in body and 'dir="rtl"' in body


@pytest.mark.django_db
def test_allauth_pages_use_the_site_layout(client):
    body = client.get(reverse("account_login")).content.decode()
    assert 'class="site-header"' in body


@pytest.mark.django_db
def test_the_notification_bell_is_drawn_not_a_font_glyph(client, alice):
    # Debian's chromium without a colour-emoji font drew the bell emoji as an empty box
    client.force_login(alice)
    body = client.get(reverse("home")).content.decode()
    bell = body.split('class="bell"', 1)[1].split("</a>", 1)[0]
    assert '<svg class="bell-icon"' in bell and 'aria-hidden="true"' in bell
    assert "🔔" not in bell
    assert 'aria-label="Notifications' in bell


@pytest.mark.django_db
def test_a_refused_sign_in_is_said_at_once_and_once(client, alice):
    """A sign-in refused (no field to tie it to) stood at the form's top as a plain list: a
    screen reader on the page that came back heard the title, not that it was refused. It is
    an alert now, as on the new-table and report forms; a field's own error stays tied to it."""
    body = client.post(
        reverse("account_login"), {"login": "alice", "password": "not-her-password"}
    ).content.decode()
    alert = body.split('role="alert"', 1)[1].split("</div>", 1)[0]
    assert "not correct" in alert
    assert body.count("not correct") == 1
    body = client.post(
        reverse("account_signup"),
        {"email": "not-an-address", "username": "zed", "password1": "x", "password2": "x"},
    ).content.decode()
    assert 'aria-invalid="true" aria-describedby="id_email_error"' in body
    assert '<ul class="errorlist" id="id_email_error">' in body
