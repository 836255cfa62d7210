from django.urls import path

from games import reports, views

app_name = "games"
urlpatterns = [
    path("", views.my_games, name="my_games"),
    path("new/", views.new_game, name="new"),
    path("vacation/", views.vacation_page, name="vacation"),
    path("learn/<slug:slug>/", views.learn, name="learn"),
    path("open/", views.open_tables, name="open_tables"),
    path("players/<str:username>/", views.player, name="player"),
    path("<int:game_id>/", views.table, name="table"),
    path("<int:game_id>/act/", views.table_act, name="act"),
    path("<int:game_id>/live/", views.table_live, name="live"),
    path("<int:game_id>/replay/", views.replay, name="replay"),
    path("<int:game_id>/report/", reports.report_player, name="report"),
    path("<int:game_id>/chat/", views.chat_panel, name="chat"),
    path("<int:game_id>/chat/post/", views.chat_post, name="chat_post"),
    path("<int:game_id>/chat/<int:line>/report/", views.chat_report, name="chat_report"),
    path("players/<str:username>/mute/", views.chat_mute, name="chat_mute"),
    path("<int:game_id>/<str:command>/", views.table_command, name="command"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
]
