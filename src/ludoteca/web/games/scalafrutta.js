// Scalafrutta: every player's captured tiles and points along the top, the 3 x 3 square
// in the middle with its twelve insertion arrows, the drawn tile at its left. The drawn
// tile starts selected: click a lit arrow (or drag the tile onto it). When no insertion
// matches, a small menu asks who receives the tile pushed out. Splits are buttons.

import { TILE, count, tileName, tilesNamed } from '../art.js';
import { coarse } from '../touch.js';
import { capitalise, seatName } from '../ui.js';

const PAD = 12;
const CELL = TILE + 4;
const MINI = 30;
const ARROW = 30;
// A seat's line under its first one, once it has split: its type's size, and 4 units more
// for its line. A finger's board is drawn at about 0.77 of its units on a 390 px phone, where
// 12 units were 9.5 px: 16 there (12 px), 12 with a mouse (15 px at 1280 x 800). The seat's
// own line keeps 14: in bold, in a match, it fills the board's width already.
const SPLIT_SIZE = { finger: 16, mouse: 12 };
const ARROWS = { L: '▶', R: '◀', T: '▼', B: '▲' };
const EDGE_WORDS = { L: 'left of row', R: 'right of row', T: 'top of column', B: 'bottom of column' };
// The seed's "Punteggi", for the split's label only (the engine scores the hand): a group
// of one number (3 to 6 tiles) or a run of one fruit (3 to 5) scores this plus its tiles'
// numbers. A browser test holds them to the engine's.
const GROUP_POINTS = { 3: 25, 4: 50, 5: 100, 6: 250 };
const RUN_POINTS = { 3: 50, 4: 100, 5: 200 };

// An insertion's cells in the square (rows of three, from the top left): the one the drawn
// tile enters, the one whose tile is pushed out. As the engine's CELLS.
const ENTRY = { L: (k) => 3 * k, R: (k) => 3 * k + 2, T: (k) => k, B: (k) => 6 + k };
const EXIT = { L: (k) => 3 * k + 2, R: (k) => 3 * k, T: (k) => 6 + k, B: (k) => k };
// A pile just dealt (36 tiles, 9 of them in the square): no insertion leaves one this full.
const DEALT_PILE = 27;

/** A split's combinations (`split 2B-3B-4B 5M-5P-5C`) as lists of tiles. */
const combosOf = (move) => (move === 'split none' ? [] : move.slice(6).split(' ').map((c) => c.split('-')));

/** What a split scores: every combination it offers is one (the rules' move list). */
function splitPoints(combos) {
  return combos.reduce((sum, tiles) => {
    const numbers = tiles.map((t) => Number(t[0]));
    const one = numbers.every((n) => n === numbers[0]);
    const bonus = (one ? GROUP_POINTS : RUN_POINTS)[tiles.length] ?? 0;
    return sum + bonus + numbers.reduce((a, n) => a + n, 0);
  }, 0);
}

/** "2 bananas, 3 bananas, 4 bananas: 59 points": each combination in the words the tiles
 * show (not the notation's 2B-3B-4B), and what the split scores. */
function splitWords(combos) {
  const tiles = combos.map((c) => c.map(tileName).join(', ')).join(' + ');
  return `${tiles}: ${count(splitPoints(combos), 'point')}`;
}


export default {
  draw(board, obs, view) {
    // Each arrow takes the room between the square and the block's edge: a finger's is a
    // cell deep, so that an arrow is 44 px to tap on a 390 px phone (its drawing, 30 units
    // by 60, was 22 x 46 px). The room comes out of the space left of the square, and 16
    // units more: two players' board stays wider than tall, fitted to a phone held
    // sideways (a taller one is drawn life size, and scrolls).
    const finger = coarse();
    const room = finger ? CELL : ARROW + 6;
    const block = 3 * CELL + 2 * room;
    // Wide enough for the square and the drawn tile at its left, and no wider: phones.
    const width = 3 * CELL + 2 * (ARROW + 6) + 2 * (CELL + 24) + PAD * 2 + (finger ? 16 : 0);
    const perRow = Math.floor((width - 2 * PAD) / (MINI + 3));
    const rowsOf = (seat) => Math.max(1, Math.ceil(obs.captured_count[seat] / perRow));
    const split = (seat) => obs.shown[seat]?.length > 0;
    const splitSize = finger ? SPLIT_SIZE.finger : SPLIT_SIZE.mouse;
    const heights = [...Array(obs.players).keys()].map(
      (s) => 22 + (split(s) ? splitSize + 4 : 0) + rowsOf(s) * (MINI + 3));
    const squareTop = PAD + heights.reduce((a, h) => a + h, 0) + 14;
    board.begin(width, squareTop + block + PAD);

    // Each seat's line says what its numbers are: it read "0 pts · 3 tiles · split 28" right
    // after the status line's "scored …: 28 points". The total is the finished hands' (none
    // to tell in a single hand); a split's points are scored when the hand ends.
    const match = Boolean(obs.params?.target);
    let y = PAD;
    for (let seat = 0; seat < obs.players; seat += 1) {
      const turn = obs.to_move === seat ? ' · to play' : '';
      const total = match ? ` · total ${count(obs.totals[seat], 'point')}` : '';
      board.text(PAD, y + 13, `${capitalise(seatName(view, seat))}: `
        + `${count(obs.captured_count[seat], 'tile')}${total}${turn}`, {
        size: 14, cls: obs.to_move === seat ? 'label strong' : 'label',
      });
      let top = y + 20;
      if (split(seat)) {
        // (Once the game is over the points are in the scores.)
        const when = view?.outcome ? '' : ', scored when the hand ends';
        board.text(PAD, y + 19 + splitSize, `last split: ${count(obs.shown_points[seat], 'point')}${when}`,
          { size: splitSize, cls: 'label dim' });
        top += splitSize + 4;
      }
      const tiles = obs.captured[seat];
      for (let i = 0; i < obs.captured_count[seat]; i += 1) {
        const x = PAD + (i % perRow) * (MINI + 3);
        const ty = top + Math.floor(i / perRow) * (MINI + 3);
        if (tiles && tiles[i]) board.tile(x, ty, tiles[i], { key: null, size: MINI });
        else board.tileBack(x, ty, { size: MINI });
      }
      y += heights[seat];
    }

    const left = width - PAD - block;
    const sx = left + room;
    const sy = squareTop + room;
    const pile = { x: PAD, y: sy + 2 * CELL - 8 };
    if (obs.pile_count > 0) board.tileBack(pile.x, pile.y, { label: `draw pile, ${count(obs.pile_count, 'tile')}` });
    board.text(pile.x + TILE / 2, pile.y + TILE + 16, `pile ${obs.pile_count}`, { anchor: 'middle', size: 12 });
    if (obs.drawn) {
      const x = PAD;
      board.tile(x, sy + 14, obs.drawn, { enter: pile, label: `${tileName(obs.drawn)}, drawn` });
      board.text(x + TILE / 2, sy + 6, 'drawn', { anchor: 'middle', size: 12, cls: 'label strong' });
    }
    obs.square.forEach((row, r) => row.forEach((code, c) => {
      board.tile(sx + c * CELL + 2, sy + r * CELL + 2, code, { key: null });
    }));
    const deep = room - 4; // an arrow's place to tap, out from the square: its room
    for (let k = 0; k < 3; k += 1) {
      const along = k * CELL + 2;
      // hit: in the arrow's own units, its whole room, a cell long (no gap between two).
      const arrow = (edge, x, y, w, h, hit) => board.slot(x, y, w, h, {
        key: `${edge}${k + 1}`, label: `insert at the ${EDGE_WORDS[edge]} ${k + 1}`,
        // The side arrows are narrow, not small: their glyph as large as the others'.
        caption: ARROWS[edge], rx: 8, captionSize: 18, hit,
      });
      arrow('L', sx - ARROW - 4, sy + along, ARROW, TILE, [ARROW - deep, -2, deep, CELL]);
      arrow('R', sx + 3 * CELL + 4, sy + along, ARROW, TILE, [0, -2, deep, CELL]);
      arrow('T', sx + along, sy - ARROW - 4, TILE, ARROW, [-2, ARROW - deep, CELL, deep]);
      arrow('B', sx + along, sy + 3 * CELL + 4, TILE, ARROW, [-2, 0, CELL, deep]);
    }
  },

  // What the others' moves since yours changed, for the board to mark, where it is face up
  // now: the tile each insertion pushed in, if still in the square; the tile it pushed out,
  // in the captures it went to (face down there under `coperte`, so not marked, but for the
  // tiles pushed out to you); a split's combinations. Nothing from a hand since dealt anew.
  marked(moves, obs) {
    const square = obs.square.flat();
    const ids = [];
    for (const { seat, move, before, after } of moves) {
      if (!move || after.hand !== obs.hand) continue;
      if (move.startsWith('split')) {
        ids.push(...combosOf(move).flat().filter((t) => obs.captured[seat]?.includes(t)));
        continue;
      }
      const dealt = before ? before.hand !== after.hand : after.pile_count === DEALT_PILE;
      if (dealt) continue; // (this insertion ended the hand: the square is the next one's)
      const k = Number(move[1]) - 1;
      const pushedIn = after.square.flat()[ENTRY[move[0]](k)];
      if (square.includes(pushedIn)) ids.push(pushedIn);
      const pushedOut = before?.square.flat()[EXIT[move[0]](k)];
      const to = move.includes('>') ? Number(move.split('>P')[1]) - 1 : seat;
      if (pushedOut && obs.captured[to]?.includes(pushedOut)) ids.push(pushedOut);
    }
    return ids;
  },

  parse(move, obs) {
    if (move.startsWith('split')) return null;
    return { from: obs.drawn, to: move.split('>')[0] };
  },

  // An arrow where the drawn tile matches nothing: the move tried, for the rules to say
  // why not (and which arrows match).
  attempt(chosen, keys) {
    const arrow = keys.find((k) => /^[LRTB][1-3]$/.test(k));
    return chosen && arrow ? arrow : null;
  },

  preselect(obs) {
    return obs.drawn;
  },

  // How the match ended and how each hand did (the panel said only "single hand · hands
  // 1", where the terminal says "1: 0/500 (scalafrutta)").
  ending(termination, outcome) {
    const how = {
      scalafrutta: 'a scalafrutta (six tiles of one fruit)',
      combinations: 'combinations scored',
      'phase-limit': 'the phase limit',
    };
    const endings = outcome?.details?.endings ?? [];
    const hands = (outcome?.details?.hand_scores ?? []).map(
      (scores, i) => `hand ${i + 1}: ${scores.join('–')}, ${how[endings[i]] ?? endings[i]}`);
    return [termination, ...hands].join('; ');
  },

  label(move, obs, view) {
    if (move.startsWith('split')) {
      // The points, and the tiles that go back to the pile: the button said only "Score 2
      // bananas, 3 bananas, 4 bananas". A split, not a score: its points count when the
      // hand ends, if it is still this seat's last split then.
      const combos = combosOf(move);
      const said = combos.length ? `Split ${splitWords(combos)}` : 'Split with no combination';
      const held = obs?.captured_count?.[view?.seat];
      if (held === undefined) return said;
      const back = held - combos.flat().length;
      const goes = back ? `${count(back, 'tile')} go${back === 1 ? 'es' : ''} back to the pile`
        : 'no tile goes back';
      return `${said} (${goes})`;
    }
    const [where, to] = move.split('>');
    // (A sentence's start, as every game's labels: the hint, the menu and the refusal say
    // it first. The status line's verb is describe's, inside its sentence.)
    const text = `Insert at the ${EDGE_WORDS[where[0]]} ${where[1]}`;
    // The receiver (P2 in the notation is the second seat) named as everywhere on the page.
    return to ? `${text}, the pushed tile to ${seatName(view, Number(to.slice(1)) - 1)}` : text;
  },

  // Another's move as the status line tells it, verb included ("Greedy bot (seat 2)
  // inserted at the left of row 1", "split 3 apples, 4 apples, 5 apples: 62 points, scored
  // when the hand ends"). A split's points count only when the hand ends (rules, End of a
  // hand: each player scores their last split), as the seat's line says: "scored 62
  // points" read as points already won. Once the game is over they are in the scores.
  describe(move, obs, view) {
    if (move === 'split none') return 'split with no combination';
    if (move.startsWith('split')) {
      const when = view?.outcome ? '' : ', scored when the hand ends';
      return `split ${splitWords(combosOf(move))}${when}`;
    }
    return this.label(move, obs, view).replace(/^Insert/, 'inserted');
  },

  // The rules' refusals in the page's words: tiles as the page names them, arrows (L1) as
  // the arrows' own labels say them (the left of row 1).
  words(text) {
    return tilesNamed(text)
      .replace(/\b([LRTB][1-3]) (?=[LRTB][1-3]\b)/g, '$1, ')
      .replace(/\b([LRTB])([1-3])\b/g, (_, edge, line) => `the ${EDGE_WORDS[edge]} ${line}`);
  },

  prompt(obs) {
    if (obs.stage === 'split') return 'Your split: choose it below.';
    return obs.drawn ? `Insert ${tileName(obs.drawn)}: click a lit arrow.` : 'Your move.';
  },

  summary(obs) {
    // Target 0 is the single-hand game (mano): no score to reach.
    if (!obs.params.target) return 'a single hand';
    return `hand ${obs.hand} · to ${obs.params.target}`;
  },
};
