"""The judge desk (matches/judge_views.py): the queue, a call's page and its actions, and the
player's "call a judge" button on their match."""

from django.urls import path

from matches import judge_views as views

CALL = "judge/calls/<int:pk>/"

urlpatterns = [
    path("judge/", views.judge_queue, name="judge_queue"),
    path("judge/claim-next/", views.judge_claim_next, name="judge_claim_next"),
    path(CALL, views.judge_call, name="judge_call"),
    path(CALL + "claim/", views.judge_call_claim, name="judge_call_claim"),
    path(CALL + "hand-back/", views.judge_call_hand_back, name="judge_call_hand_back"),
    path(CALL + "escalate/", views.judge_call_escalate, name="judge_call_escalate"),
    path(CALL + "note/", views.judge_call_note, name="judge_call_note"),
    path(CALL + "extend/", views.judge_call_extend, name="judge_call_extend"),
    path(CALL + "ruling/", views.judge_call_ruling, name="judge_call_ruling"),
    path("matches/<int:pk>/call/", views.match_call, name="match_call"),
]
