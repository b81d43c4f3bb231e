// Drive the npm package tournament-organizer (the peer Swiss engine) on a Battledesk history.
//
//   node bench/peer_tournament_organizer.mjs HISTORY.json
//
// HISTORY.json: {"players": [{"id", "dropped"}], "rounds": [[{"a", "b", "result", "games"} or
// {"a", "bye": true}]]} (the STATE.json shape of docs/swiss.md). The script loads the players
// and finished rounds into a tournament-organizer Swiss tournament (Manager.loadTournament,
// scoring 3/1/0, bye 3, best of 3, MTR tiebreakers), times nextRound() - the peer's own
// standings plus its pairing - and prints {"ms", "pairings": [[a, b]], "byes": [id]} as JSON.
// The package is installed by bench/pairing.py into bench/.peer (git-ignored).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '.peer', 'package.json'));
const entry = require.resolve('tournament-organizer');
const { default: Manager } = await import(pathToFileURL(entry).href);

const history = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const nRounds = history.rounds.length;

const playerMatches = new Map(history.players.map((p) => [p.id, []]));
const points = new Map(history.players.map((p) => [p.id, 0]));
const matches = [];
history.rounds.forEach((round, r) => {
  const before = new Map(points);
  round.forEach((m, k) => {
    const id = `r${r + 1}m${k + 1}`;
    if (m.bye) {
      playerMatches.get(m.a).push({
        id, opponent: null, pairUpDown: false, seating: null, bye: true, win: 2, loss: 0, draw: 0,
      });
      matches.push({
        id, round: r + 1, match: k + 1, active: false, bye: true, loss: false,
        player1: { id: m.a, win: 2, loss: 0, draw: 0 },
        player2: { id: null, win: 0, loss: 0, draw: 0 },
        path: { win: null, loss: null }, meta: {},
      });
      points.set(m.a, points.get(m.a) + 3);
      return;
    }
    const [wa, wb, d] = m.games;
    const pairUpDown = before.get(m.a) !== before.get(m.b);
    playerMatches.get(m.a).push({
      id, opponent: m.b, pairUpDown, seating: null, bye: false, win: wa, loss: wb, draw: d,
    });
    playerMatches.get(m.b).push({
      id, opponent: m.a, pairUpDown, seating: null, bye: false, win: wb, loss: wa, draw: d,
    });
    matches.push({
      id, round: r + 1, match: k + 1, active: false, bye: false, loss: false,
      player1: { id: m.a, win: wa, loss: wb, draw: d },
      player2: { id: m.b, win: wb, loss: wa, draw: d },
      path: { win: null, loss: null }, meta: {},
    });
    const pa = m.result === 'a' ? 3 : m.result === 'draw' ? 1 : 0;
    const pb = m.result === 'b' ? 3 : m.result === 'draw' ? 1 : 0;
    points.set(m.a, points.get(m.a) + pa);
    points.set(m.b, points.get(m.b) + pb);
  });
});

const manager = new Manager();
const tournament = manager.loadTournament({
  id: 'bench',
  name: 'bench',
  status: 'stage-one',
  round: nRounds,
  seating: false,
  sorting: 'none',
  scoring: {
    bestOf: 3, win: 3, draw: 1, loss: 0, bye: 3,
    tiebreaks: ['opponent match win percentage', 'game win percentage', 'opponent game win percentage'],
  },
  stageOne: { format: 'swiss', consolation: false, rounds: nRounds + 1, initialRound: 1, maxPlayers: 0 },
  stageTwo: { format: null, consolation: false, advance: { value: 0, method: 'all' } },
  meta: {},
  players: history.players.map((p) => ({
    id: p.id, name: p.id, active: !p.dropped, value: 0, matches: playerMatches.get(p.id), meta: {},
  })),
  matches,
});

const started = process.hrtime.bigint();
tournament.nextRound();
const ms = Number(process.hrtime.bigint() - started) / 1e6;

const pairings = [];
const byes = [];
for (const m of tournament.getMatchesByRound(nRounds + 1)) {
  const a = m.getPlayer1().id;
  const b = m.getPlayer2().id;
  if (b === null) byes.push(a);
  else pairings.push([a, b]);
}
process.stdout.write(JSON.stringify({ ms, pairings, byes }) + '\n');
