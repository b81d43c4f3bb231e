"""Pages for tournament staff running the rounds (matches/staff_views.py)."""

from django.urls import path

from matches import panel_views
from matches import staff_views as views

ROUNDS = "events/<slug:slug>/manage/rounds/"
ROUND = ROUNDS + "<int:number>/"

urlpatterns = [
    path(ROUNDS, views.round_control, name="round_control"),
    path("events/<slug:slug>/manage/panel/", panel_views.round_panel_fragment, name="round_panel"),
    path(
        "events/<slug:slug>/manage/panel/accept/",
        panel_views.round_panel_accept,
        name="round_panel_accept",
    ),
    path(ROUNDS + "pair/", views.round_pair, name="staff_round_pair"),
    path(ROUNDS + "top-cut/", views.round_top_cut, name="staff_round_top_cut"),
    path(
        "events/<slug:slug>/manage/stages/<int:number>/start/",
        views.stage_start,
        name="staff_stage_start",
    ),
    path(ROUND, views.round_control, name="round_control"),
    path(ROUND + "swap/", views.round_swap, name="staff_round_swap"),
    path(ROUND + "table/", views.round_set_table, name="staff_round_set_table"),
    path(ROUND + "repair/", views.round_repair, name="staff_round_repair"),
    path(ROUND + "publish/", views.round_publish, name="staff_round_publish"),
    path(ROUND + "delete/", views.round_delete, name="staff_round_delete"),
    path(ROUND + "timer/", views.round_timer, name="staff_round_timer"),
    path(ROUND + "scorekeeper/", views.scorekeeper, name="scorekeeper"),
    path(ROUND + "slips/", views.match_slips, name="match_slips"),
    path("matches/<int:pk>/staff/", views.match_staff, name="match_staff"),
    path("matches/<int:pk>/staff/extension/", views.match_extend, name="staff_match_extend"),
]
