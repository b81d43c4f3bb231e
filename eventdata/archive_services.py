"""Write side of the event archive: restore an archive (`archive_import`), section by section
on `eventdata.archive_writer.ArchiveWriter` (the fields, the checks, the report). The archives
kept after every finished round are `eventdata.archive_store`'s (`archive_store_round`, run by
the Celery task in eventdata/tasks.py), re-exported here.

An import runs in one transaction under the event's row lock: it is all written or nothing
is. Every object is found by its natural key (the event by slug, people by player id then
username, cards by game and external id, registrations by account or walk-in name and time,
rounds by number, matches by round and first seat, and so on), so importing the same archive
twice changes nothing. What is in the installation but not in the archive is left alone.
A dry run does all of it and rolls back, reporting what it would have done.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models import prefetch_related_objects

from config.locks import for_update
from decks.models import (
    Card,
    Catalog,
    DeckCheck,
    DeckCheckResult,
    Decklist,
    DecklistVersion,
    EventCatalog,
)
from decks.selectors import default_catalog
from eventdata import archive
from eventdata.archive import ArchiveError
from eventdata.archive_store import ARCHIVE_DIR as ARCHIVE_DIR
from eventdata.archive_store import StoredArchive as StoredArchive
from eventdata.archive_store import archive_store_round as archive_store_round
from eventdata.archive_store import round_archive_name as round_archive_name
from eventdata.archive_store import stored_archive_path as stored_archive_path
from eventdata.archive_store import stored_archives as stored_archives
from eventdata.archive_writer import ArchiveWriter, times_as_given
from eventdata.archive_writer import ImportReport as ImportReport
from matches.models import (
    ClockEvent,
    JudgeCall,
    Lineup,
    Match,
    Penalty,
    Report,
    ResultVersion,
    Round,
    RoundStatus,
    Ruling,
    StandingsSnapshot,
    TeamMatch,
)
from matches.services import results_source_version
from overlays.models import FeatureMatch
from tournaments.brackets import single_round_label
from tournaments.models import AuditEntry, Registration, Stage, Team, TeamMember, Tournament
from tournaments.services import new_claim_code
from tournaments.stages import legacy_stages


class _DryRun(Exception):
    pass


def _own_catalog_slug(event: Tournament) -> str:
    """The slug of the catalog an imported event keeps the cards this installation lacked."""
    return f"archive-{event.slug}"[:80]


class _Importer(ArchiveWriter):
    # -- sections ---------------------------------------------------------------------------

    def run(self) -> Tournament:
        self.import_users()
        event = self.event = self.import_event()
        self.import_cards(event)
        self.import_registrations(event)
        self.import_decklists()
        self.import_rounds(event)
        self.import_teams(event)
        self.import_stages(event)  # before the matches: results take their stage's structure
        if self.doc["stages"]:
            # Each match's result is checked against its stage's structure: read them once.
            prefetch_related_objects([event], "stages")
        self.import_team_matches(event)
        self.import_lineups()
        self.import_matches(event)
        if not self.doc["stages"] and not Stage.objects.filter(tournament=event).exists():
            self._legacy_stages(event)
        self.import_reports()
        self.import_result_versions()
        self.import_standings(event)
        self.import_calls(event)
        self.import_rulings()
        self.import_penalties(event)
        self.import_clock_events()
        self.import_feature_matches(event)
        self.import_deck_checks(event)
        self.import_audit(event)
        return event

    def import_users(self) -> None:
        user_model = get_user_model()
        for i, u in enumerate(self.doc["users"]):
            found = None
            if u.get("player_id"):
                found = user_model.objects.filter(player_id=u["player_id"]).first()
            if found is None:
                found = user_model.objects.filter(username=u["username"]).first()
            if found is not None:
                if found.username != u["username"]:
                    self.report.notes.append(
                        f"{u['username']!r} is {found.username!r} here (same player id)"
                    )
                self.report.count("users", "unchanged")
            else:
                found = user_model(
                    username=u["username"],
                    display_name=str(u.get("display_name") or "")[:80],
                    first_name=str(u.get("first_name") or "")[:150],
                    last_name=str(u.get("last_name") or "")[:150],
                    email=str(u.get("email") or "")[:254],
                    player_id=str(u.get("player_id") or ""),
                )
                found.set_unusable_password()
                try:
                    found.full_clean(exclude=["password", "player_id"])
                except ValidationError as exc:
                    raise ArchiveError("; ".join(exc.messages), f"users[{i}]") from None
                found.save()
                self.report.count("users", "created")
            self.users[u["username"]] = found

    def import_cards(self, event: Tournament) -> None:
        """The cards the decklists name, read from the catalog the event reads here. Cards
        this installation lacks are written only into a catalog of the event's own
        (`archive-<slug>`), which the event then reads: an archive never adds to or changes
        the official, demo or another organiser's catalog, so it cannot change what any other
        event reads."""
        for i, c in enumerate(self.doc["cards"]):
            if c["game"] != event.game:
                raise ArchiveError(
                    f"'game': a card of {c['game']!r} in an event of {event.game!r}",
                    f"cards[{i}]",
                )
        named = self.doc["event"].get("card_catalog")
        if not self.doc["cards"] and not named:
            return
        readable = self._readable_catalog(named, event) if named else default_catalog(event.game)
        if named and readable is None:
            self.report.notes.append(
                f"the event's card catalog {named!r} is not one it may read here: "
                "its cards are kept in a catalog of the event's own"
            )
        wanted = {c["external_id"] for c in self.doc["cards"]}
        have = (
            set(
                Card.objects.filter(catalog=readable, external_id__in=wanted).values_list(
                    "external_id", flat=True
                )
            )
            if readable is not None
            else set()
        )
        link = EventCatalog.objects.filter(tournament=event).first()
        if readable is not None and wanted <= have:
            self.report.counts.setdefault("cards", {"created": 0, "updated": 0, "unchanged": 0})
            self.report.counts["cards"]["unchanged"] += len(self.doc["cards"])
            if named and (link is None or link.catalog_id != readable.pk):
                self._link(event, readable, link)
            return
        own = self._own_catalog(event)
        existing = set(
            Card.objects.filter(catalog=own, external_id__in=wanted).values_list(
                "external_id", flat=True
            )
        )
        for i, c in enumerate(self.doc["cards"]):
            if c["external_id"] in existing:
                self.report.count("cards", "unchanged")
                continue
            self.upsert("cards", None, Card, c, f"cards[{i}]", {"catalog": own})
        if link is None or link.catalog_id != own.pk:
            self._link(event, own, link)

    def _readable_catalog(self, slug: str, event: Tournament) -> Any:
        """The catalog named `slug` when the event may read it here: a shared one (official,
        demo) of its game, or a custom one of the event's own organisers."""
        catalog = Catalog.objects.filter(slug=slug, game=event.game).first()
        if catalog is None:
            return None
        if catalog.kind in (Catalog.Kind.OFFICIAL, Catalog.Kind.DEMO):
            return catalog
        if catalog.slug == _own_catalog_slug(event):
            return catalog
        if catalog.owner_id is not None and event.organisers.filter(pk=catalog.owner_id).exists():
            return catalog
        return None

    def _own_catalog(self, event: Tournament) -> Any:
        slug = _own_catalog_slug(event)
        catalog = Catalog.objects.filter(slug=slug).first()
        if catalog is not None:
            if catalog.game != event.game:
                raise ArchiveError(
                    f"the catalog {slug!r} of this installation is of another game", "cards"
                )
            self.report.count("card_catalog", "unchanged")
            return catalog
        owner = event.organisers.order_by("pk").first()
        catalog = Catalog.objects.create(
            game=event.game,
            slug=slug,
            name=f"{event.name} (archive)"[:120],
            kind=Catalog.Kind.CUSTOM,
            owner=owner,
        )
        self.report.count("card_catalog", "created")
        self.report.notes.append(f"the event reads its own card catalog {slug!r}")
        return catalog

    def _link(self, event: Tournament, catalog: Any, link: Any) -> None:
        EventCatalog.objects.update_or_create(tournament=event, defaults={"catalog": catalog})
        self.report.count("event_catalog", "updated" if link is not None else "created")

    def import_event(self) -> Tournament:
        item = self.doc["event"]
        existing = for_update(Tournament.objects).filter(slug=item["slug"]).first()
        event: Tournament = self.upsert("event", existing, Tournament, item, "event", {})
        for key in ("organisers", "judges"):
            wanted = {self.users[name].pk for name in item.get(key, [])}
            manager = getattr(event, key)
            if set(manager.values_list("pk", flat=True)) != wanted:
                manager.set(wanted)
                if existing is not None:
                    self.report.count("event", "updated")
        return event

    def import_registrations(self, event: Tournament) -> None:
        by_player = {r.player_id: r for r in event.registrations.filter(player__isnull=False)}
        walk_ins = {
            (r.walk_in_name, r.created_at): r for r in event.registrations.filter(player=None)
        }
        new: list[Registration] = []
        for i, item in enumerate(self.doc["registrations"]):
            where = f"registrations[{i}]"
            player = self.user(item.get("player"))
            if player is not None:
                existing = by_player.get(player.pk)
            else:
                created = Registration._meta.get_field("created_at").to_python(item["created_at"])
                existing = walk_ins.get((item.get("walk_in_name"), created))
            code = item.get("claim_code")
            if code and (
                Registration.objects.filter(claim_code=code)
                .exclude(pk=existing.pk if existing else None)
                .exists()
            ):
                item = {**item, "claim_code": new_claim_code()}
                self.report.notes.append(f"{where}: its claim code was taken; a new one given")
            self.regs[item["key"]] = self.upsert(
                "registrations",
                existing,
                Registration,
                item,
                where,
                {"tournament": event},
                bulk=new,
            )
        self._flush(Registration, new)

    def import_decklists(self) -> None:
        for i, item in enumerate(self.doc["decklists"]):
            where = f"decklists[{i}]"
            reg = self.regs[item["registration"]]
            existing = Decklist.objects.filter(registration=reg).first()
            decklist = self.upsert(
                "decklists", existing, Decklist, item, where, {"registration": reg}
            )
            have = {v.number: v for v in decklist.versions.all()}
            for j, v in enumerate(item["versions"]):
                version = self.upsert(
                    "decklist_versions",
                    have.get(v["number"]),
                    DecklistVersion,
                    v,
                    f"{where}.versions[{j}]",
                    {"decklist": decklist},
                )
                self.versions[(item["registration"], v["number"])] = version

    def _rounds_placed(self) -> list[Mapping[str, Any]]:
        """The archive's rounds; one written before stages has no ``stage_number`` and
        ``name``: its Swiss rounds are stage 1 ("Round 1", ...) and its top-cut rounds stage
        2, named by the places in them, as the migration placed every existing event's."""
        items = list(self.doc["rounds"])
        if all("stage_number" in item for item in items):
            return items
        per_round: dict[Any, int] = {}
        for m in self.doc["matches"]:
            per_round[m.get("round")] = per_round.get(m.get("round"), 0) + 1
        out: list[Mapping[str, Any]] = []
        swiss = 0
        places: int | None = None
        for item in sorted(items, key=lambda r: r["number"]):
            if "stage_number" in item:
                out.append(item)
                continue
            if item.get("stage") == "top_cut":
                if places is None:
                    places = 2 * per_round.get(item["number"], 1)
                size = 2
                while size < places:
                    size *= 2
                name = single_round_label(size).render()
                out.append({**item, "stage_number": 2, "name": name})
                places = max(places // 2, 2)
            else:
                swiss += 1
                out.append({**item, "stage_number": 1, "name": f"Round {swiss}"})
        return out

    def import_stages(self, event: Tournament) -> None:
        """The archive's stages by number, before the matches (a result is checked against
        its stage's structure); an archive written before stages has none (_legacy_stages)."""
        have = {s.number: s for s in Stage.objects.filter(tournament=event)}
        items = self.doc["stages"]
        if not items:
            return
        for i, item in enumerate(items):
            where = f"stages[{i}]"
            values = dict(item)
            if values.get("players") is not None:
                # A team event's stages are played by teams (team keys).
                entrants: Mapping[str, Any] = self.teams if self.teams else self.regs
                values["players"] = [entrants[key].pk for key in values["players"]]
            self.upsert(
                "stages", have.get(item["number"]), Stage, values, where, {"tournament": event}
            )

    def _legacy_stages(self, event: Tournament) -> None:
        """An archive written before stages: the event gets its legacy stages (Swiss, then
        the top cut), with their players and times read from the restored rounds, as the
        migration gave every existing event."""
        rounds = sorted(self.rounds.values(), key=lambda r: r.number)
        for rule in legacy_stages(event.top_cut_size or None):
            row = Stage.from_rule(event, rule)
            mine = [r for r in rounds if r.stage_number == rule.number]
            if mine:
                row.started_at = mine[0].created_at
                firsts = Match.objects.filter(round=mine[0]) if rule.is_elimination else None
                if firsts is not None:
                    seeded = sorted(
                        [(m.seed_a or 0, m.a_id) for m in firsts]
                        + [(m.seed_b or 0, m.b_id) for m in firsts if m.b_id is not None]
                    )
                    row.players = [pk for _seed, pk in seeded]
                else:
                    pairs = Match.objects.filter(round__in=mine).values_list("a_id", "b_id")
                    row.players = sorted({p for pair in pairs for p in pair if p is not None})
                later = any(r.stage_number > rule.number for r in rounds)
                ended = event.status in ("finished", "cancelled")
                last = mine[-1]
                done = all(r.status == RoundStatus.FINISHED for r in mine) and (
                    (later or ended)
                    if not rule.is_elimination
                    else Match.objects.filter(round=last).count() <= 1
                )
                if done:
                    row.finished_at = last.finished_at or last.created_at
            row.save()
            self.report.count("stages", "created")

    def import_rounds(self, event: Tournament) -> None:
        have = {r.number: r for r in Round.objects.filter(tournament=event)}
        # Finished rounds first: the one-unfinished-round constraint holds at every step.
        order = sorted(
            enumerate(self._rounds_placed()),
            key=lambda p: (p[1].get("status") != "finished", p[0]),
        )
        for i, item in order:
            self.rounds[item["number"]] = self.upsert(
                "rounds",
                have.get(item["number"]),
                Round,
                item,
                f"rounds[{i}]",
                {"tournament": event},
            )

    def import_teams(self, event: Tournament) -> None:
        """*Addition*: a team event's teams, found by name, and their rosters (a member found
        by registration); an archive written before teams has none."""
        have = {t.name: t for t in Team.objects.filter(tournament=event)}
        for i, item in enumerate(self.doc["teams"]):
            where = f"teams[{i}]"
            head = item.get("head_coach")
            team = self.upsert(
                "teams",
                have.get(item["name"]),
                Team,
                item,
                where,
                {"tournament": event, "head_coach": self.regs[head] if head else None},
            )
            self.teams[item["key"]] = team
            known = set(
                TeamMember.objects.filter(team=team).values_list("registration_id", flat=True)
            )
            for key in item.get("members", []):
                registration = self.regs[key]
                if registration.pk in known:
                    self.report.count("team_members", "unchanged")
                    continue
                taken = TeamMember.objects.filter(registration=registration).first()
                if taken is not None:
                    raise ArchiveError(
                        f"'members': {key} is already in another team", f"{where}.members"
                    )
                TeamMember.objects.create(team=team, registration=registration)
                self.report.count("team_members", "created")

    def import_team_matches(self, event: Tournament) -> None:
        """*Addition*: team matches, found by round and team a."""
        have = {
            (tm.round_id, tm.team_a_id): tm
            for tm in TeamMatch.objects.filter(round__tournament=event)
        }
        for i, item in enumerate(self.doc["team_matches"]):
            round_ = self.rounds[item["round"]]
            team_a = self.teams[item["team_a"]]
            team_b = self.teams[item["team_b"]] if item.get("team_b") else None
            self.team_matches[item["key"]] = self.upsert(
                "team_matches",
                have.get((round_.pk, team_a.pk)),
                TeamMatch,
                item,
                f"team_matches[{i}]",
                {"round": round_, "team_a": team_a, "team_b": team_b},
            )

    def import_lineups(self) -> None:
        """*Addition*: line-ups, found by team match and team; players by registration."""
        have = {
            (lu.team_match_id, lu.team_id): lu
            for lu in Lineup.objects.filter(team_match__round__tournament=self.event)
        }
        for i, item in enumerate(self.doc["lineups"]):
            tm = self.team_matches[item["team_match"]]
            team = self.teams[item["team"]]
            values = {**item, "players": [self.regs[key].pk for key in item.get("players", [])]}
            self.upsert(
                "lineups",
                have.get((tm.pk, team.pk)),
                Lineup,
                values,
                f"lineups[{i}]",
                {"team_match": tm, "team": team},
            )

    def import_matches(self, event: Tournament) -> None:
        # A Head Coach who played a board plays the deciding game too: found by the seat and
        # whether it is the decider.
        have = {
            (m.round_id, m.a_id, m.is_decider): m
            for m in Match.objects.filter(round__tournament=event)
        }
        new: list[Match] = []
        for i, item in enumerate(self.doc["matches"]):
            round_ = self.rounds[item["round"]]
            a = self.regs[item["a"]]
            b = self.regs[item["b"]] if item.get("b") is not None else None
            self.match_rounds[item["key"]] = round_
            if b is not None:
                item = self.check_result(round_, item, f"matches[{i}]")
            team_match = item.get("team_match")
            self.matches[item["key"]] = self.upsert(
                "matches",
                have.get((round_.pk, a.pk, item.get("is_decider") is True)),
                Match,
                item,
                f"matches[{i}]",
                {
                    "round": round_,
                    "a": a,
                    "b": b,
                    "team_match": self.team_matches[team_match] if team_match else None,
                },
                bulk=new,
            )
        self._flush(Match, new)

    def import_reports(self) -> None:
        have = {
            (r.match_id, r.registration_id): r
            for r in Report.objects.filter(match__round__tournament=self.event)
        }
        new: list[Report] = []
        for i, item in enumerate(self.doc["reports"]):
            match = self.matches[item["match"]]
            item = self.check_result(
                self.match_rounds[item["match"]],
                item,
                f"reports[{i}]",
                required=True,
                decider=match.is_decider,
            )
            reg = self.regs[item["registration"]]
            existing = have.get((match.pk, reg.pk))
            self.upsert(
                "reports",
                existing,
                Report,
                item,
                f"reports[{i}]",
                {"match": match, "registration": reg},
                bulk=new,
            )
        self._flush(Report, new)

    def import_result_versions(self) -> None:
        have = {
            (v.match_id, v.number): v
            for v in ResultVersion.objects.filter(match__round__tournament=self.event)
        }
        new: list[ResultVersion] = []
        for i, item in enumerate(self.doc["result_versions"]):
            match = self.matches[item["match"]]
            existing = have.get((match.pk, item["number"]))
            self.upsert(
                "result_versions",
                existing,
                ResultVersion,
                item,
                f"result_versions[{i}]",
                {"match": match},
                bulk=new,
            )
        self._flush(ResultVersion, new)

    def import_standings(self, event: Tournament) -> None:
        for i, item in enumerate(self.doc["standings"]):
            where = f"standings[{i}]"
            round_ = self.rounds[item["round"]]

            def reg_id(key: Any) -> int | None:
                return self.regs[key].pk if key in self.regs else None

            rows = []
            for row in item["rows"]:
                row = dict(row)
                row["registration"] = reg_id(row.get("registration"))
                if isinstance(row.get("opponents"), list):
                    row["opponents"] = [
                        {**o, "registration": reg_id(o.get("registration"))}
                        if isinstance(o, dict)
                        else o
                        for o in row["opponents"]
                    ]
                rows.append(row)
            # A snapshot that was current stays current; a stale one is recomputed on read.
            source = results_source_version(event, round_.number) if item.get("current") else 0
            existing = StandingsSnapshot.objects.filter(round=round_).first()
            # the event (imported first) names the tiebreakers a current snapshot has
            tiebreakers = event.tiebreaker_fingerprint if item.get("current") else ""
            values = {"rows": rows, "source_version": source, "tiebreakers": tiebreakers}
            if item.get("computed_at"):
                values["computed_at"] = item["computed_at"]
            self.upsert("standings", existing, StandingsSnapshot, values, where, {"round": round_})

    def import_calls(self, event: Tournament) -> None:
        for i, item in enumerate(self.doc["calls"]):
            where = f"calls[{i}]"
            match = self.matches[item["match"]]
            opened = JudgeCall._meta.get_field("opened_at").to_python(item["opened_at"])
            existing = JudgeCall.objects.filter(match=match, opened_at=opened).first()
            self.calls[item["key"]] = self.upsert(
                "calls",
                existing,
                JudgeCall,
                item,
                where,
                {"tournament": event, "match": match},
            )

    def import_rulings(self) -> None:
        for i, item in enumerate(self.doc["rulings"]):
            call = self.calls[item["call"]]
            created = Ruling._meta.get_field("created_at").to_python(item.get("created_at"))
            existing = Ruling.objects.filter(call=call, created_at=created).first()
            self.upsert("rulings", existing, Ruling, item, f"rulings[{i}]", {"call": call})

    def import_penalties(self, event: Tournament) -> None:
        for i, item in enumerate(self.doc["penalties"]):
            match = self.matches[item["match"]]
            reg = self.regs[item["registration"]]
            created = Penalty._meta.get_field("created_at").to_python(item.get("created_at"))
            existing = Penalty.objects.filter(
                match=match, registration=reg, created_at=created
            ).first()
            self.upsert(
                "penalties",
                existing,
                Penalty,
                item,
                f"penalties[{i}]",
                {"tournament": event, "match": match, "registration": reg},
            )

    def import_clock_events(self) -> None:
        for i, item in enumerate(self.doc.get("clock_events", [])):
            match = self.matches[item["match"]]
            existing = ClockEvent.objects.filter(match=match, seq=item.get("seq")).first()
            self.upsert(
                "clock_events", existing, ClockEvent, item, f"clock_events[{i}]", {"match": match}
            )

    def import_feature_matches(self, event: Tournament) -> None:
        """A feature match is found by its match (a match is in at most one slot); an
        archive written before feature matches were archived has none."""
        for i, item in enumerate(self.doc["feature_matches"]):
            match = self.matches[item["match"]]
            self.upsert(
                "feature_matches",
                FeatureMatch.objects.filter(match=match).first(),
                FeatureMatch,
                item,
                f"feature_matches[{i}]",
                {"tournament": event, "round": match.round_id, "match": match},
            )

    def import_deck_checks(self, event: Tournament) -> None:
        for i, item in enumerate(self.doc["deck_checks"]):
            where = f"deck_checks[{i}]"
            created = DeckCheck._meta.get_field("created_at").to_python(item.get("created_at"))
            existing = DeckCheck.objects.filter(
                tournament=event, round_number=item.get("round_number"), created_at=created
            ).first()
            check = self.upsert(
                "deck_checks", existing, DeckCheck, item, where, {"tournament": event}
            )
            for j, res in enumerate(item["results"]):
                reg = self.regs[res["registration"]]
                version = (
                    self.versions[(res["registration"], res["version"])]
                    if res.get("version") is not None
                    else None
                )
                self.upsert(
                    "deck_check_results",
                    DeckCheckResult.objects.filter(deck_check=check, registration=reg).first(),
                    DeckCheckResult,
                    res,
                    f"{where}.results[{j}]",
                    {"deck_check": check, "registration": reg, "version": version},
                )

    def import_audit(self, event: Tournament) -> None:
        have = {
            (a.action, a.target, a.created_at)
            for a in AuditEntry.objects.filter(tournament=event).only(
                "action", "target", "created_at"
            )
        }
        new: list[AuditEntry] = []
        for i, item in enumerate(self.doc["audit"]):
            where = f"audit[{i}]"
            reg = self.regs.get(item["registration"]) if item.get("registration") else None
            entry = AuditEntry()
            self.apply(entry, item, where, {"tournament": event, "registration": reg})
            key = (entry.action, entry.target, entry.created_at)
            if key in have:
                self.report.count("audit", "unchanged")
                continue
            have.add(key)
            new.append(entry)
            self.report.count("audit", "created")
        # Append-only: entries are only ever added, in bulk.
        AuditEntry.objects.bulk_create(new, batch_size=1000)


def _import_models() -> list[type[models.Model]]:
    return [
        Tournament,
        Registration,
        AuditEntry,
        Card,
        Decklist,
        DecklistVersion,
        DeckCheck,
        DeckCheckResult,
        Round,
        Team,
        TeamMatch,
        Lineup,
        Match,
        Report,
        ResultVersion,
        StandingsSnapshot,
        JudgeCall,
        Ruling,
        Penalty,
        FeatureMatch,
    ]


def archive_import(data: str | bytes | Mapping[str, Any], *, dry_run: bool = False) -> ImportReport:
    """Restore an archive: everything or nothing, in one transaction (see the module doc).

    Raises ArchiveError for a file that is not a readable archive of this version, or whose
    content the database refuses (nothing is written then).
    """
    doc = archive.parse(data)
    report = ImportReport(slug=doc["event"]["slug"], dry_run=dry_run)
    try:
        with times_as_given(*_import_models()) as auto_times, transaction.atomic():
            _Importer(doc, report, auto_times).run()
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    except (DatabaseError, ValueError, TypeError, KeyError, ValidationError) as exc:
        message = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
        raise ArchiveError(f"the database refused it, nothing was imported ({message})") from None
    return report
