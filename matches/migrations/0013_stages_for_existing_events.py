"""Every existing event gets its stages (event-structures: Stages): the legacy shape, one Swiss
stage and, with a top cut, a single elimination of the top ``top_cut_size``; started, finished
and players read from its rounds. Top-cut rounds become stage 2, and every round is named."""

from django.db import migrations


def _single_name(places):
    if places == 2:
        return "Final"
    if places == 4:
        return "Semifinals"
    if places == 8:
        return "Quarterfinals"
    return f"Round of {places}"


def forwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Stage = apps.get_model("tournaments", "Stage")
    Round = apps.get_model("matches", "Round")
    Match = apps.get_model("matches", "Match")
    for event in Tournament.objects.all().iterator():
        if Stage.objects.filter(tournament=event).exists():
            continue
        rounds = list(Round.objects.filter(tournament=event).order_by("number"))
        swiss = [r for r in rounds if r.stage != "top_cut"]
        cut = [r for r in rounds if r.stage == "top_cut"]
        ended = event.status in ("finished", "cancelled")
        first = Stage(
            tournament=event, number=1, name="Swiss", kind="swiss", entry=None, carry="none"
        )
        if swiss:
            first.started_at = swiss[0].created_at
            played = set()
            for a, b in Match.objects.filter(round__in=swiss).values_list("a_id", "b_id"):
                played.add(a)
                if b is not None:
                    played.add(b)
            first.players = sorted(played)
            if (cut or ended) and all(r.status == "finished" for r in swiss):
                first.finished_at = swiss[-1].finished_at or swiss[-1].created_at
        first.save()
        for k, round_ in enumerate(swiss, start=1):
            round_.name = f"Round {k}"
            round_.stage_number = 1
            round_.save(update_fields=["name", "stage_number"])
        if not event.top_cut_size and not cut:
            continue
        size = event.top_cut_size or 2 * Match.objects.filter(round=cut[0]).count()
        second = Stage(
            tournament=event,
            number=2,
            name=f"Top {size}",
            kind="single_elimination",
            entry={"from": [1], "top": size},
            carry="none",
        )
        if cut:
            second.started_at = cut[0].created_at
            seeded = []
            for m in Match.objects.filter(round=cut[0]):
                seeded.append((m.seed_a or 0, m.a_id))
                if m.b_id is not None:
                    seeded.append((m.seed_b or 0, m.b_id))
            second.players = [pid for _, pid in sorted(seeded)]
            places = 2 * Match.objects.filter(round=cut[0]).count()
            for round_ in cut:
                round_.name = _single_name(max(places, 2))
                round_.stage_number = 2
                round_.save(update_fields=["name", "stage_number"])
                places //= 2
            last = cut[-1]
            if last.status == "finished" and Match.objects.filter(round=last).count() <= 1:
                second.finished_at = last.finished_at or last.created_at
        second.save()


def backwards(apps, schema_editor):
    apps.get_model("tournaments", "Stage").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0012_round_stage_number_and_name"),
        ("tournaments", "0009_stage"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
