"""Plain-text emails are plain text: a name with an apostrophe or ampersand reads as typed."""

from __future__ import annotations

from django.core import mail

from accounts import mailing


def test_plain_text_part_is_not_html_escaped(db, settings, django_user_model):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = django_user_model.objects.create_user(
        username="oneil", email="oneil@example.com", password="x-Secret-123"
    )
    user.display_name = "Bob O'Neil & <Co>"
    user.save()

    class Note:
        text = "Bob O'Neil & <Co> invites you to Cockroach Poker Royal #5."
        pk = 1

    context = {"note": Note(), "text": Note.text, "url": "http://x/"}  # as email_queue's
    mailing.send(user, "subject", "notification", context)
    text = mail.outbox[-1].body
    html = mail.outbox[-1].alternatives[0][0]
    assert "Bob O'Neil & <Co> invites you" in text
    assert "Hello Bob O'Neil & <Co>," in text
    assert "Bob O&#x27;Neil &amp; &lt;Co&gt; invites you" in html
