// Mosaico: the draw pile, the tile to place and the set-aside pile on top; the mosaic
// below, with the empty cells around it. The tile to place starts selected: click a lit
// cell (or drag the tile there); when it fits nowhere, click the set-aside pile.

import { TILE, count, tileName, tilesNamed } from '../art.js';
import { endedAs } from '../ui.js';

const PAD = 12;
const CELL = TILE + 4;
const HEAD = TILE + 40;
const AXIS = 22; // room for the row numbers left of the mosaic

function cells(obs) {
  const [top, left] = obs.origin;
  const placed = new Map();
  obs.mosaic.forEach((row, r) => row.forEach((code, c) => {
    if (code) placed.set(`${top + r},${left + c}`, code);
  }));
  return placed;
}

function targets(view) {
  return view.legal_moves
    .map((m) => m.split('@')[1])
    .filter((where) => where && where !== 'aside')
    .map((where) => where.split(',').map(Number));
}

export default {
  draw(board, obs, view) {
    const placed = cells(obs);
    // Show the mosaic, one ring of empty cells around it inside the frame, and the targets.
    const [top, left] = obs.origin;
    const rows = obs.mosaic.length;
    const cols = Math.max(...obs.mosaic.map((r) => r.length));
    const { rows: [rLo, rHi], cols: [cLo, cHi] } = obs.frame;
    let r0 = Math.max(rLo, top - 1);
    let r1 = Math.min(rHi, top + rows);
    let c0 = Math.max(cLo, left - 1);
    let c1 = Math.min(cHi, left + cols);
    for (const [r, c] of targets(view)) {
      r0 = Math.min(r0, r); r1 = Math.max(r1, r); c0 = Math.min(c0, c); c1 = Math.max(c1, c);
    }
    const gridW = (c1 - c0 + 1) * CELL;
    const width = Math.max(gridW + 2 * AXIS, 3 * (TILE + 30)) + PAD * 2;
    board.begin(width, HEAD + (r1 - r0 + 1) * CELL + PAD * 2);
    const pile = { x: PAD, y: PAD };
    if (obs.draw_count > 0) board.tileBack(pile.x, pile.y, { label: `draw pile, ${count(obs.draw_count, 'tile')}` });
    else board.slot(pile.x, pile.y, TILE, TILE, { caption: '∅' });
    board.text(pile.x + TILE / 2, PAD + TILE + 16, `to draw ${obs.draw_count}`, { anchor: 'middle', size: 12 });
    const current = { x: PAD + TILE + 30, y: PAD };
    const aside = { x: PAD + 2 * (TILE + 30), y: PAD };
    // The tile to place taken back from the set-aside pile is still its top in the
    // observation: shown once, as the tile to place, the pile shows what lies under it.
    const back = obs.current && obs.current_from !== 'draw' && obs.aside[0] === obs.current;
    const under = back ? obs.aside.slice(1) : obs.aside;
    if (under.length === 0) {
      board.slot(aside.x, aside.y, TILE, TILE, { key: 'aside', label: 'set-aside pile', caption: 'aside' });
    }
    under.slice(0, 3).reverse().forEach((code, i, shown) => {
      const topTile = i === shown.length - 1;
      board.tile(aside.x + (shown.length - 1 - i) * 3, aside.y - (shown.length - 1 - i) * 3, code, {
        key: topTile ? 'aside' : null, label: `set-aside pile, top ${tileName(code)}`,
      });
    });
    board.text(aside.x + TILE / 2, PAD + TILE + 16, `aside ${under.length}`, { anchor: 'middle', size: 12 });
    if (obs.current && obs.current_from === 'draw') {
      board.tile(current.x, current.y, obs.current, { enter: pile, label: `${tileName(obs.current)}, to place` });
    } else if (obs.current) {
      board.tile(current.x, current.y, obs.current, {
        label: `${tileName(obs.current)}, back from the set-aside pile`,
      });
    }
    board.text(current.x + TILE / 2, PAD + TILE + 16, 'to place', { anchor: 'middle', size: 12, cls: 'label strong' });

    const gridX = (width - gridW) / 2;
    // Rows and columns numbered as the notation, the hints and the refusals name them
    // ("row -1, column 3"): the first tile laid is row 0, column 0.
    for (let c = c0; c <= c1; c += 1) {
      board.text(gridX + (c - c0) * CELL + CELL / 2, HEAD + PAD - 2, String(c), { anchor: 'middle', size: 11 });
    }
    for (let r = r0; r <= r1; r += 1) {
      board.text(gridX - 6, HEAD + PAD + (r - r0) * CELL + CELL / 2 + 4, String(r), { anchor: 'end', size: 11 });
    }
    for (let r = r0; r <= r1; r += 1) {
      for (let c = c0; c <= c1; c += 1) {
        const x = gridX + (c - c0) * CELL + 2;
        const y = HEAD + PAD + (r - r0) * CELL + 2;
        const code = placed.get(`${r},${c}`);
        if (code) board.tile(x, y, code, { key: null });
        else board.slot(x, y, TILE, TILE, { key: `${r},${c}`, label: `row ${r}, column ${c}`, rx: 8 });
      }
    }
  },

  parse(move) {
    const [tile, where] = move.split('@');
    return { from: tile, to: where, click: where === 'aside' };
  },

  // A cell (or the set-aside pile) that does not take the tile: the move tried, for the
  // rules to say why not.
  attempt(chosen, keys) {
    const where = keys.find((k) => k === 'aside' || /^-?\d+,-?\d+$/.test(k));
    return chosen && where ? `${chosen}@${where}` : null;
  },

  preselect(obs) {
    return obs.current;
  },

  label(move) {
    // In the words the tile shows (5 apples, not the notation's 5M): the hint says this.
    const [tile, where] = move.split('@');
    const name = tileName(tile);
    return where === 'aside' ? `Set ${name} aside` : `${name} at row ${where.replace(',', ', column ')}`;
  },

  // The rules' refusals in the page's words: tiles as the page names them, cells (2,-1) as
  // rows and columns, as the cells' own labels say ("it fits at 1,2 0,3": at one or another).
  words(text) {
    return tilesNamed(text)
      .replace(/(?<![\d-])(-?\d+,-?\d+) (?=-?\d+,-?\d)/g, '$1 or ')
      .replace(/(?<![\d-])(-?\d+),(-?\d+)\b/g, 'row $1, column $2');
  },

  prompt(obs, view) {
    if (!obs.current) return 'Your move.';
    // When the tile fits nowhere the only lit place is the set-aside pile: say so.
    if (view.legal_moves.every((m) => m.endsWith('@aside'))) {
      return tilesNamed(`${obs.current} fits nowhere: set the tile aside (click the set-aside pile).`);
    }
    const from = obs.current_from === 'draw' ? '' : ', from the set-aside pile';
    return `Place ${tileName(obs.current)}${from}: click a lit cell.`;
  },

  // How the game ended, in a sentence with its figures: the end panel listed them ("stuck ·
  // placed 33 · set aside 3"). A lost game names the set-aside tile that fits nowhere.
  ending(termination, outcome, view) {
    const figures = outcome?.details ?? {};
    if (figures.placed === undefined) return null;
    const tiles = `${count(figures.placed, 'tile')} placed, ${figures.set_aside} set aside`;
    const top = view?.observation?.aside?.[0];
    let fits = '';
    if (top) fits = figures.set_aside === 1 ? ` and no place for the set-aside ${tileName(top)}`
      : ` and no place for ${tileName(top)}, on top of the set-aside pile`;
    const how = {
      won: `All ${count(figures.placed, 'tile')} placed: the 6 × 6 square is full`,
      stuck: `Nothing left to draw${fits}: ${tiles}`,
    }[termination] ?? `${endedAs(termination)}: ${tiles}`;
    return `${how}.`;
  },

  summary(obs) {
    return `${obs.placed} of 36 placed`;
  },
};
