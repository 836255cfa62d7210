"""WebSocket routes."""

from django.urls import path  # noqa: F401

websocket_urlpatterns: list = []
