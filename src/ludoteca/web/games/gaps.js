// Gaps: four rows of thirteen; a gap is an empty slot (a dead one is crossed). A card that
// can move plays with one click (it goes right of its predecessor), or drag it to its gap;
// a 2 with several column-0 gaps lights them up to choose. Cards already in sequence from
// column 0 are tinted. Redeal is a button when it is allowed, and the prompt says so.

import {
  CARD_H, CARD_W, cardShown, cardsNamed, count,
} from '../art.js';
import { endedAs } from '../ui.js';

const PAD = 10;
const STEP_X = CARD_W + 6;
const STEP_Y = CARD_H + 8;
const cellKey = (r, c) => `cell-${r}-${c}`;
// A card's or gap's place to tap is its whole cell, the space around it shared with its
// neighbours: on a phone held upright a card is 25 x 36 px, and a finger between two cards
// touched nothing.
const CELL_HIT = [-(STEP_X - CARD_W) / 2, -(STEP_Y - CARD_H) / 2, STEP_X, STEP_Y];

function find(obs, code) {
  for (let r = 0; r < obs.rows; r += 1) {
    const c = obs.grid[r].indexOf(code);
    if (c >= 0) return [r, c];
  }
  return null;
}

// A gap clicked first (it said nothing): what it takes, by the seed's rule. Cards are named
// as their faces show them (10♠, not the notation's TS), here and in `stuck`.
function gapTakes(keys, obs) {
  const cell = keys.find((k) => /^cell-\d+-\d+$/.test(k));
  if (!cell) return null;
  const [r, c] = cell.split('-').slice(1).map(Number);
  if (obs.grid[r][c]) return null;
  if (c === 0) return 'This gap takes a 2: choose one, then the gap.';
  const left = obs.grid[r][c - 1];
  if (!left) return 'A gap right of another gap takes nothing.';
  if (left[0] === 'K') return `A gap right of ${cardShown(left)} takes nothing.`;
  const ranks = 'A23456789TJQK';
  const next = cardShown(ranks[ranks.indexOf(left[0]) + 1] + left[1]);
  return `This gap takes ${next}, the card after ${cardShown(left)}: choose ${next}.`;
}

/** A number as the score shows it, past the floats' last digits (2.2, not 2.2000000000000002). */
const figure = (n) => Number(n.toFixed(6));

/** What the redeals used cost, where they cost points (rules, End and score: the cards in
 * sequence less the penalty for each redeal used), and the score it leaves: ", which cost 5
 * points each: score 19 − 10 = 9"; nothing where they cost none. */
function cost(figures, outcome) {
  const used = figures.redeals_used ?? 0;
  const score = outcome?.scores?.[0];
  if (!used || typeof score !== 'number') return '';
  const lost = figure(figures.in_sequence - score);
  if (lost <= 0) return '';
  const each = used > 1 ? ' each' : '';
  return `, which cost ${count(figure(lost / used), 'point')}${each}:`
    + ` score ${figures.in_sequence} − ${lost} = ${figure(score)}`;
}

export default {
  draw(board, obs) {
    board.begin(PAD * 2 + obs.cols * STEP_X - 6, PAD * 2 + obs.rows * STEP_Y - 8);
    const dead = new Set(obs.dead.map(([r, c]) => cellKey(r, c)));
    obs.grid.forEach((row, r) => row.forEach((code, c) => {
      const x = PAD + c * STEP_X;
      const y = PAD + r * STEP_Y;
      const key = cellKey(r, c);
      if (code) {
        const card = board.card(x, y, code, { cls: c < obs.prefix[r] ? 'in-sequence' : '' });
        board.hitArea(card, ...CELL_HIT);
      } else {
        const slot = board.slot(x, y, CARD_W, CARD_H, {
          key, label: `gap, row ${r + 1} column ${c + 1}${dead.has(key) ? ', dead' : ''}`,
          caption: dead.has(key) ? '✕' : '', hit: CELL_HIT,
        });
        if (dead.has(key)) slot.classList.add('dead');
      }
    }));
  },

  parse(move, obs) {
    if (move === 'redeal' || move === 'stop') return null;
    const [card, row] = move.split('>r');
    if (row) return { from: card, to: cellKey(Number(row) - 1, 0), click: true };
    // Any other card goes right of the card one rank lower of its suit.
    const ranks = 'A23456789TJQK';
    const before = find(obs, ranks[ranks.indexOf(card[0]) - 1] + card[1]);
    return { from: card, to: before ? cellKey(before[0], before[1] + 1) : null, click: true };
  },

  label(move, obs) {
    if (move === 'redeal') {
      const left = obs.redeals_allowed - obs.redeals_used;
      return `Redeal (${left} left)`;
    }
    if (move === 'stop') return `Stop here (score ${obs.score})`;
    // In the names the cards show (10♠, not the notation's TS): the hint says this.
    const [card, row] = move.split('>r');
    if (row) return `${cardShown(card)} to row ${row}, column 1`;
    const ranks = 'A23456789TJQK';
    return `${cardShown(card)} right of ${cardShown(ranks[ranks.indexOf(card[0]) - 1] + card[1])}`;
  },

  // Why a clicked card has no move (the seed's one rule: a card goes right of the card one
  // rank lower of its suit, a 2 into an empty first-column cell).
  // With `chosen` (a card chosen or dragged, then put where it cannot go), the reason is
  // that card's, not the one under the drop.
  stuck(keys, obs, view, chosen) {
    const ranks = 'A23456789TJQK';
    if (chosen && /^[2-9TJQK][SHDC]$/.test(chosen)) {
      const shown = cardShown(chosen);
      if (chosen[0] === '2') {
        // Put on an empty first-column cell it may not take: only the repetition rule
        // forbids that (it was told it "goes only into an empty first-column cell").
        const cell = keys.find((k) => /^cell-\d+-0$/.test(k));
        if (cell && !obs.grid[Number(cell.split('-')[1])][0]) {
          return `${shown} there would bring back an earlier position of this deal.`;
        }
        return `${shown} goes only into an empty first-column cell.`;
      }
      const before = ranks[ranks.indexOf(chosen[0]) - 1] + chosen[1];
      return `${shown} goes only right of ${cardShown(before)}.`;
    }
    const card = keys.find((k) => /^[2-9TJQK][SHDC]$/.test(k));
    const at = card && find(obs, card);
    if (!at) return gapTakes(keys, obs);
    const [r, c] = at;
    const shown = cardShown(card);
    if (card[0] === '2') {
      // A 2 with a first-column gap open has no move only when each would bring back an
      // earlier position (RULES.md, repetition); it was called "in sequence".
      const open = obs.grid.some((row) => !row[0]);
      if (open) return `Moving ${shown} now would bring back an earlier position of this deal.`;
      if (c === 0) return `${shown} is in sequence: it stays where it is.`;
      return `${shown} goes only into an empty first-column cell, and none is open.`;
    }
    if (c < obs.prefix[r]) return `${shown} is in sequence: it stays where it is.`;
    const before = ranks[ranks.indexOf(card[0]) - 1] + card[1];
    const [br, bc] = find(obs, before);
    if (bc + 1 >= obs.cols) return `${shown} goes right of ${cardShown(before)}, which ends its row.`;
    const there = obs.grid[br][bc + 1];
    // Right of its predecessor already, outside the run in sequence ("KS goes right of QS,
    // where KS is" was said).
    if (there === card) return `${shown} is already right of ${cardShown(before)}.`;
    if (there) return `${shown} goes right of ${cardShown(before)}, where ${cardShown(there)} is.`;
    return null;
  },

  // The rules' refusals in the page's words: cards as their faces show them, cells as rows
  // and columns (r2c5 is row 2, column 5).
  words(text) {
    return cardsNamed(text).replace(/\br(\d+)c(\d+)\b/g, 'row $1, column $2');
  },

  // How the deal ended, in a sentence with its figures: the end panel listed them ("stuck ·
  // in sequence 16 · redeals used 1 · redeals allowed 2"). Where the redeals cost points,
  // it says so, with the sum: the score under it was below the cards in sequence, unexplained.
  ending(termination, outcome) {
    const figures = outcome?.details ?? {};
    if (figures.in_sequence === undefined) return null; // the panel lists the figures
    const cards = `${count(figures.in_sequence, 'card')} in sequence`;
    const allowed = figures.redeals_allowed ?? 0;
    const redeals = allowed
      ? `; ${figures.redeals_used} of ${count(allowed, 'redeal')} used${cost(figures, outcome)}` : '';
    const how = {
      won: `All ${cards}`,
      stopped: `You stopped with ${cards}`,
      stuck: `No move left${allowed ? ' and no redeal left' : ''}: ${cards}`,
    }[termination] ?? `${endedAs(termination)}: ${cards}`;
    return `${how}${redeals}.`;
  },

  prompt(obs) {
    // As the terminal's status line: say why the only thing left is the redeal button.
    if (obs.legal_moves.length === 1 && obs.legal_moves[0] === 'redeal') {
      return 'No move left: redeal with the button below the table.';
    }
    // Seed, Redeals: a redeal "is allowed"; where it costs points, stopping is the other way.
    if (obs.legal_moves.includes('stop')) {
      return 'No move left: redeal, or stop and keep your score, with the buttons below the table.';
    }
    return 'Your move.';
  },

  summary(obs) {
    return `${obs.in_sequence} in sequence · redeals ${obs.redeals_used}/${obs.redeals_allowed}`;
  },
};
