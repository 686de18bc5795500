// The table for a game whose own module is not written yet: the observation drawn as
// rows of cards, tiles and figures, and every legal move as a button under the board.

import { CARD_H, CARD_W, TILE } from './art.js';

const CARD = /^[A2-9TJQK][CDHS]$/;
const TILE_CODE = /^[1-6][MPCUFB]$/;
const SKIP = new Set(['game', 'legal_moves', 'outcome']);
const WIDTH = 900;
const GAP = 6;

function kindOf(values) {
  const codes = values.filter((v) => typeof v === 'string');
  if (codes.length === 0) return null;
  if (codes.every((v) => CARD.test(v))) return 'card';
  if (codes.every((v) => TILE_CODE.test(v))) return 'tile';
  return null;
}

/** Flatten the observation into labelled rows: pieces where they look like cards or tiles. */
function rows(obs) {
  const out = [];
  const visit = (label, value) => {
    if (Array.isArray(value) && value.length && value.every(Array.isArray)) {
      value.forEach((inner, i) => visit(`${label} ${i + 1}`, inner));
    } else if (Array.isArray(value) && kindOf(value)) {
      out.push({ label, kind: kindOf(value), values: value });
    } else if (typeof value === 'string' && kindOf([value])) {
      out.push({ label, kind: kindOf([value]), values: [value] });
    } else {
      out.push({ label, kind: 'text', values: [JSON.stringify(value)] });
    }
  };
  for (const [key, value] of Object.entries(obs)) {
    if (!SKIP.has(key)) visit(key.replaceAll('_', ' '), value);
  }
  return out;
}

export default {
  draw(board, obs) {
    const lines = rows(obs);
    const heights = lines.map((l) => (l.kind === 'card' ? CARD_H : l.kind === 'tile' ? TILE : 22));
    board.begin(WIDTH, heights.reduce((a, h) => a + h + GAP * 2, 0) + GAP);
    let y = GAP;
    lines.forEach((line, i) => {
      board.text(0, y + 16, line.label, { cls: 'label fallback-label', size: 14 });
      let x = 150;
      for (const value of line.values) {
        if (line.kind === 'text') {
          board.text(x, y + 16, value.length > 90 ? `${value.slice(0, 88)}…` : value, { size: 14 });
        } else if (value === null) {
          board.slot(x, y, line.kind === 'card' ? CARD_W : TILE, heights[i]);
        } else if (line.kind === 'card') {
          board.card(x, y, value, { key: null, id: null });
        } else {
          board.tile(x, y, value, { key: null, id: null });
        }
        x += (line.kind === 'card' ? CARD_W : TILE) + 4;
      }
      y += heights[i] + GAP * 2;
    });
  },
  parse() {
    return null;
  },
};
