// Il Muro: the new wall (one foundation per fruit) above the old wall's six columns.
// A column's top tile is the lowest one drawn. Click a face-up top tile, then a column or
// its foundation (a double click sends it to the foundation); click an uncovered face-down
// tile to turn it up.

import {
  FRUITS, TILE, count, svg, tileName, tilesNamed,
} from '../art.js';
import { endedAs } from '../ui.js';

const PAD = 12;
const STEP = TILE + 14;
const FAN = 30;
const ORDER = 'MPCUFB';
const colX = (i) => PAD + i * STEP;

export default {
  draw(board, obs) {
    const longest = Math.max(1, ...obs.wall.map((c) => c.length));
    const wallY = PAD + TILE + 34;
    board.begin(colX(6) - 14 + PAD, wallY + (longest - 1) * FAN + TILE + PAD);
    obs.foundations.forEach((built, f) => {
      const x = colX(f);
      const key = `F${f}`;
      const name = FRUITS[ORDER[f]].name;
      const start = obs.may_start_with_six ? '1 or 6' : '1';
      const top = built[built.length - 1];
      if (top) {
        board.tile(x, PAD, top, { key: `${top} ${key}`, label: `${tileName(top)} on the ${name} foundation` });
      } else {
        const slot = board.slot(x, PAD, TILE, TILE, { key, label: `${name} foundation` });
        // Which fruit the foundation is for, faintly, and the number it starts with.
        svg('use', {
          href: `#fruit-${ORDER[f]}`, x: 14, y: 6, width: 32, height: 32, opacity: 0.45,
        }, slot);
        board.text(TILE / 2, TILE - 8, start, { anchor: 'middle', size: 13, parent: slot });
      }
      board.text(x + TILE / 2, PAD + TILE + 16, `${built.length}/6`, {
        anchor: 'middle', size: 11, cls: 'label dim',
      });
    });
    obs.wall.forEach((column, i) => {
      const x = colX(i);
      const key = `c${i + 1}`;
      if (column.length === 0) board.slot(x, wallY, TILE, TILE, { key, label: `column ${i + 1}, empty` });
      column.forEach((code, depth) => {
        const top = depth === column.length - 1;
        const y = wallY + depth * FAN;
        if (code === null) {
          board.tileBack(x, y, top
            ? { key: `turn-${key} ${key}`, label: `face-down tile on top of column ${i + 1}` }
            : {});
        } else {
          board.tile(x, y, code, {
            key: top ? `${code} ${key}` : null,
            label: top ? `${tileName(code)}, top of column ${i + 1}` : undefined,
            enter: 'fade',
          });
        }
      });
    });
  },

  parse(move) {
    const [first, second] = move.split(' ');
    if (first === 'turn') return { from: `turn-${second}`, click: true };
    if (second === 'F') return { from: first, to: `F${ORDER.indexOf(first[1])}`, click: true };
    if (second) return { from: first, to: second };
    return null;
  },

  label(move) {
    if (move === 'resign') return 'Give up this deal';
    const [first, second] = move.split(' ');
    if (first === 'turn') return `Turn up the tile of column ${second.slice(1)}`;
    // In the words the tile shows (1 strawberries, not the notation's 1F): the hint says this.
    if (second === 'F') return `${tileName(first)} to its foundation`;
    return `${tileName(first)} onto column ${second.slice(1)}`;
  },

  // A chosen tile clicked onto another fruit's foundation: the move tried would name only
  // its own foundation ("2P F"), and the refusal would be about that one.
  stuck(keys, obs, view, chosen) {
    const foundation = keys.find((k) => /^F[0-5]$/.test(k));
    if (!chosen || !foundation || !/^[1-6][MPCUFB]$/.test(chosen)) return null;
    const fruit = ORDER[Number(foundation[1])];
    if (fruit === chosen[1]) return null;
    return `${tileName(chosen)} cannot go on the ${FRUITS[fruit].name} foundation: a tile goes`
      + " on its own fruit's foundation.";
  },

  // The move tried (a tile onto a column or foundation that does not take it, or a top
  // tile with no move, tried on its foundation), for the rules to say why not.
  attempt(chosen, keys) {
    const place = keys.find((k) => /^(F[0-5]|c[1-6])$/.test(k));
    if (chosen && place) return `${chosen} ${place[0] === 'F' ? 'F' : place}`;
    const tile = keys.find((k) => /^[1-6][MPCUFB]$/.test(k));
    return !chosen && tile ? `${tile} F` : null;
  },

  // The rules' refusals in the page's words: tiles as the page names them, columns (c2) in
  // words, and a fruit without its notation letter ("the pears (P) foundation").
  words(text) {
    return tilesNamed(text)
      .replace(/\bc([1-6])\b/g, 'column $1')
      .replace(/ \([MPCUFB]\)/g, '');
  },

  confirm(move) {
    return move === 'resign';
  },

  // How the game ended, in a sentence with its figures: the end panel listed them ("no
  // progress · on foundations 12 · face down 20").
  ending(termination, outcome, view) {
    const figures = outcome?.details ?? {};
    if (figures.on_foundations === undefined) return null;
    const home = `${count(figures.on_foundations, 'tile')} on the new wall`;
    const hidden = figures.face_down ? `${figures.face_down} still face down` : 'none face down';
    const tiles = `${home} and ${hidden}`;
    const limit = view?.observation?.idle_limit;
    const idle = limit
      ? `${count(limit, 'move')} in a row without progress` : 'Too long without progress';
    const how = {
      won: `All ${home}`,
      resigned: `You gave up with ${tiles}`,
      'no progress': `${idle}: ${tiles}`,
      stuck: `No move left: ${tiles}`,
    }[termination] ?? `${endedAs(termination)}: ${tiles}`;
    return `${how}.`;
  },

  summary(obs) {
    // As the terminal's status line: the no-progress count ends the game at its limit.
    // Shown short, "new wall 0 · no progress 0/100", so that the title line and the
    // toolbar keep one line at 1280 px (the full words pushed the toolbar onto a second);
    // the tooltip and a screen reader have them in full.
    const [wall, idle] = [obs.on_foundations, `${obs.idle}/${obs.idle_limit}`];
    return {
      text: `new wall ${wall} · no progress ${idle}`,
      full: `${wall} on the new wall · moves without progress ${idle}`,
    };
  },
};
