"""Profile, API tokens and friends; allauth's own pages are included from config/urls.py."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/close/", views.account_close, name="account_close"),
    path("profile/tokens/", views.api_token_create, name="api_token_create"),
    path("profile/tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api_token_revoke"),
    path("profile/push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("profile/push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
    path("profile/push/kinds/", views.push_kinds, name="push_kinds"),
    path("push-sw.js", views.push_service_worker, name="push_service_worker"),
    path("friends/", views.friends, name="friends"),
    path("notifications/", views.notifications_page, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
    path(
        "notifications/table/<int:game_id>/",
        views.notifications_table,
        name="notifications_table",
    ),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("friends/requests/", views.friend_request_send, name="friend_request_send"),
    path(
        "friends/requests/<int:request_id>/accept/",
        views.friend_request_accept,
        name="friend_request_accept",
    ),
    path(
        "friends/requests/<int:request_id>/decline/",
        views.friend_request_decline,
        name="friend_request_decline",
    ),
    # by the player asked, not the request's number (accounts.views.friend_request_cancel)
    path(
        "friends/<int:user_id>/cancel-request/",
        views.friend_request_cancel,
        name="friend_request_cancel",
    ),
    path("friends/<int:user_id>/remove/", views.friend_remove, name="friend_remove"),
    path("friends/<int:user_id>/block/", views.block, name="block"),
    path("friends/<int:user_id>/unblock/", views.unblock, name="unblock"),
]
