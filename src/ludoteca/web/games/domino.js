// Domino della Frutta: the other players along the top, the table in the middle (one
// column per number, 1 to 6, rows without end), your hand at the bottom. Click a tile in
// your hand, then a lit cell of its column; click a table tile to block it (the special
// move, asked to confirm). Drawing, declaring open hands and giving up are buttons.

import { TILE, count, svg, tileName, tilesNamed } from '../art.js';
import { capitalise, seatName } from '../ui.js';

const PAD = 12;
const CELL = TILE + 4;
const MINI = 30;
// The other hands once they are shown (open hands, or the game over): their faces are to be
// read, and at 30 units a phone drew their numbers 6-7 px tall.
const SHOWN = 44;
// Six tiles a row, as the table's six columns: the board stays narrow enough for a phone.
const PER_ROW = 6;
// Room at the table's left for its row numbers (the status line says "in row -1").
const GUTTER = 22;
// Not `r5c3`: a key must not look like a tile (5C), even to a leak check.
const cellKey = (row, col) => `cell-${row}-${col}`;
const TILE_CODE = /^[1-6][MPCUFB]$/;

/** The cell among ``keys`` (as cellKey writes it): its row and column, or null. */
function cellAmong(keys) {
  for (const key of keys) {
    const found = /^cell-(-?\d+)-([1-6])$/.exec(key);
    if (found) return { row: found[1], col: found[2] };
  }
  return null;
}


function placements(view) {
  return view.legal_moves
    .filter((m) => m.includes('@r'))
    .map((m) => {
      const [tile, row] = m.split('@r');
      return { row: Number(row), col: Number(tile[0]) };
    });
}

export default {
  draw(board, obs, view) {
    const others = [...Array(obs.players).keys()].filter((s) => s !== view.seat);
    const lit = placements(view);
    const rows = [...obs.table.map((t) => t.row), ...lit.map((p) => p.row)];
    const r0 = rows.length ? Math.min(...rows) - (obs.table.length ? 1 : 0) : 0;
    const r1 = rows.length ? Math.max(...rows) + (obs.table.length ? 1 : 0) : 0;
    const width = PER_ROW * CELL + PAD * 2 + GUTTER;
    // The other players' tiles wrap onto as many rows as they need.
    const mini = obs.hands ? SHOWN : MINI;
    const perRow = Math.floor((width - 2 * PAD + 3) / (mini + 3));
    const tileRows = (seat) => Math.max(1, Math.ceil(obs.hand_sizes[seat] / perRow));
    const heights = others.map((seat) => 18 + tileRows(seat) * (mini + 3));
    const headH = heights.reduce((a, h) => a + h, 0) + 10;
    const gridTop = headH + 26;
    const handRows = Math.max(1, Math.ceil((obs.hand.length + (obs.drawn ? 1 : 0)) / PER_ROW));
    const handTop = gridTop + (r1 - r0 + 1) * CELL + 30;
    // Tall as the grid it draws: the row numbers' gutter widened the frame, and a table of
    // as many rows as columns was then fitted to the window, drawn smaller than life.
    const height = handTop + handRows * CELL + PAD;
    board.begin(width, height, height > width - GUTTER);

    let y = PAD;
    others.forEach((seat, i) => {
      this.opponent(board, obs, view, seat, PAD, y, perRow, mini);
      y += heights[i];
    });

    const gridX = PAD + GUTTER;
    for (let col = 1; col <= 6; col += 1) {
      board.text(gridX + (col - 1) * CELL + CELL / 2, gridTop - 8, String(col), {
        anchor: 'middle', size: 14, cls: 'label dim',
      });
    }
    // The rows numbered down the left, as the notation and the status line name them (the
    // first tile's row is 0, the one above it -1): "placed 6 pears in row -1" named a row
    // the board never labelled.
    if (obs.table.length || lit.length) {
      board.text(gridX - 6, gridTop - 8, 'row', { anchor: 'end', size: 11, cls: 'label dim' });
      for (let row = r0; row <= r1; row += 1) {
        board.text(gridX - 6, gridTop + (row - r0) * CELL + CELL / 2 + 5, String(row), {
          anchor: 'end', size: 13, cls: 'label dim',
        });
      }
    }
    const litCells = new Map(lit.map((p) => [cellKey(p.row, p.col), p]));
    const seen = new Set();
    for (const t of obs.table) {
      const x = gridX + (t.col - 1) * CELL + 2;
      const y = gridTop + (t.row - r0) * CELL + 2;
      seen.add(cellKey(t.row, t.col));
      if (t.blocked) {
        // Face down, yet known to all: its number and a small fruit, as a tile shows them
        // (not its notation: no one at the table reads 5M).
        const back = board.tileBack(x, y, { id: t.tile, label: `${tileName(t.tile)}, blocked` });
        board.text(TILE / 2 - 1, TILE - 8, t.tile[0], {
          anchor: 'end', size: 16, cls: 'label on-back', parent: back,
        });
        svg('use', {
          href: `#fruit-${t.tile[1]}`, x: TILE / 2 + 1, y: TILE - 26, width: 20, height: 20,
        }, back);
      } else {
        board.tile(x, y, t.tile, { label: `${tileName(t.tile)} on the table` });
      }
    }
    for (const [key, { row, col }] of litCells) {
      if (seen.has(key)) continue;
      board.slot(gridX + (col - 1) * CELL + 2, gridTop + (row - r0) * CELL + 2, TILE, TILE, {
        key, label: `row ${row} of column ${col}`, rx: 8,
      });
    }

    board.text(PAD, handTop - 10, `Your hand (${obs.hand.length})${obs.open ? ' · open hands' : ''}`
      + ` · set aside ${obs.aside_count}`, { size: 13, cls: 'label strong' });
    const hand = obs.drawn && !obs.hand.includes(obs.drawn) ? [...obs.hand, obs.drawn] : obs.hand;
    hand.forEach((code, i) => {
      const x = PAD + (i % PER_ROW) * CELL + 2;
      const y = handTop + Math.floor(i / PER_ROW) * CELL;
      board.tile(x, y, code, { label: code === obs.drawn ? `${tileName(code)}, just drawn` : undefined });
    });
  },

  opponent(board, obs, view, seat, x, y, perRow, mini) {
    const flags = [
      // Short: with a bot's name and 'to move' in bold, the line must fit the board's width.
      obs.special_used[seat] ? 'block used' : '',
      obs.eliminated[seat] ? 'out' : '',
      obs.to_move === seat ? 'to move' : '',
    ].filter(Boolean).join(' · ');
    board.text(x, y + 12, `${capitalise(seatName(view, seat))}: ${count(obs.hand_sizes[seat], 'tile')}${flags ? ` · ${flags}` : ''}`, {
      size: 13, cls: obs.to_move === seat ? 'label strong' : 'label',
    });
    const open = obs.hands?.[seat];
    for (let i = 0; i < obs.hand_sizes[seat]; i += 1) {
      const tx = x + (i % perRow) * (mini + 3);
      const ty = y + 16 + Math.floor(i / perRow) * (mini + 3);
      if (open) board.tile(tx, ty, open[i], { key: null, size: mini });
      else board.tileBack(tx, ty, { size: mini });
    }
  },

  parse(move) {
    if (move.includes('@r')) {
      const [tile, row] = move.split('@r');
      return { from: tile, to: cellKey(Number(row), Number(tile[0])) };
    }
    if (move.startsWith('block ')) {
      return { from: move.slice(6), click: true, confirm: true, quiet: true };
    }
    return null;
  },

  // A hand tile with no move: the rules' reason, which the observation carries for the
  // player to move ("6B fits nowhere now: …", or the drawn tile must be placed first), in
  // the page's words (6 bananas fit nowhere now: …). A chosen tile clicked (or dragged)
  // onto a lit cell of another column: a tile goes only in its number's column, which the
  // move's notation (6P@r2) cannot name otherwise; the page says so ("6 pears go only in
  // column 6"), as Gaps says where a card goes.
  stuck(keys, obs, view, chosen) {
    const tile = [...keys, chosen].find((k) => k && obs.unplaceable?.[k]);
    if (tile) {
      const why = this.words(obs.unplaceable[tile]);
      return `${why[0].toUpperCase()}${why.slice(1)}.`;
    }
    const cell = cellAmong(keys);
    if (!chosen || !cell || !TILE_CODE.test(chosen) || cell.col === chosen[0]) return null;
    const go = chosen[0] === '1' ? 'goes' : 'go';
    return `${tileName(chosen)} ${go} only in column ${chosen[0]}, the column of its number.`;
  },

  // A chosen tile onto a lit cell of its own column that it may not take (another tile of
  // that number may): the move tried, for the rules to say why not (beside another fruit…).
  attempt(chosen, keys) {
    const cell = cellAmong(keys);
    if (!chosen || !cell || !TILE_CODE.test(chosen)) return null;
    return cell.col === chosen[0] ? `${chosen}@r${cell.row}` : null;
  },

  // The rules' texts in the page's words: tiles as the page names them, cells (r0 of
  // column 4) as rows of columns. The engine's texts stay in notation: the terminal speaks it.
  words(text) {
    return tilesNamed(text).replace(/\br(-?\d+) of column ([1-6])\b/g, 'row $1 of column $2');
  },

  label(move) {
    if (move === 'draw') return 'Draw a set-aside tile';
    if (move === 'open') return 'Declare open hands';
    if (move === 'out') return 'I cannot play: leave the game';
    // In the words the tiles show (4 bananas, not the notation's 4B): the hint says this.
    if (move.startsWith('block ')) return `Block ${tileName(move.slice(6))} (your special move)`;
    const [tile, row] = move.split('@r');
    return `${tileName(tile)} in row ${row}`;
  },

  // Another player's move, as the status line tells it ("Greedy bot (seat 2) drew a
  // set-aside tile"): the buttons' labels spoke to you ("your special move").
  describe(move) {
    const words = {
      draw: 'drew a set-aside tile',
      open: 'declared open hands (every hand is shown from now on)',
      out: 'could not place a tile: out of the game',
    };
    if (move in words) return words[move];
    if (move.startsWith('block ')) return `blocked ${tileName(move.slice(6))} (their special move)`;
    const [tile, row] = move.split('@r');
    return `placed ${tileName(tile)} in row ${row}`;
  },

  // What the others' moves since yours did on the table, for the board to mark: each tile
  // they placed or blocked (placed, a tile is face up for all; blocked, it shows its number
  // and fruit still). A draw marks nothing: the tile drawn is hidden, and the status line
  // says that a tile was drawn.
  marked(moves) {
    return moves.flatMap(({ move }) => {
      if (move?.includes('@r')) return [move.split('@r')[0]];
      if (move?.startsWith('block ')) return [move.slice(6)];
      return [];
    });
  },

  // Why the winner won, in words (the panel said "domino: a player placed their last
  // tile", the winner only a bold row of the scores); its heading names the winner.
  ending(termination, outcome, view) {
    const winners = outcome?.winners ?? [];
    if (!view || winners.length === 0) return termination;
    const names = winners.map((seat) => seatName(view, seat));
    const who = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    if (termination === 'domino') {
      return `${capitalise(who)} placed ${who === 'you' ? 'your' : 'their'} last tile (a domino).`;
    }
    const left = outcome.details?.tiles_left?.[winners[0]];
    const fewest = left === undefined ? '' : ` (${count(left, 'tile')})`;
    const has = who === 'you' || names.length > 1 ? 'have' : 'has';
    const stop = termination === 'nobody can go on' ? 'Nobody can place a tile' : termination;
    return `${stop}: ${who} ${has} the fewest tiles left in hand${fewest}.`;
  },

  // The score is minus the tiles left in hand: a column of them, and a line that says so
  // (the panel showed -2 and -1 unexplained).
  scores(outcome) {
    const left = outcome?.details?.tiles_left;
    if (!left) return null;
    return {
      columns: [{ head: 'Tiles left', values: left }],
      note: 'Score: minus the tiles left in hand; the fewest wins.',
    };
  },

  confirm(move) {
    return move === 'out';
  },

  summary(obs) {
    const n = obs.table.length;
    return `${n} ${n === 1 ? 'tile' : 'tiles'} on the table`;
  },
};
