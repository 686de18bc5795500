// Acme: stock and waste at the top left, the four foundations at the top right; the
// reserve (its top card face up) under the stock, the four columns under the foundations.
// Click the stock to draw (or to turn the waste over); a free card goes to a foundation
// or a column by click then target, or by dragging it there.

import {
  CARD_H, CARD_W, SUIT_MARKS, cardName, cardShown, cardsNamed, count,
} from '../art.js';
import { endedAs } from '../ui.js';

const PAD = 12;
const STEP = CARD_W + 12;
const FAN = 24;
// Wide enough for a 10's index: at 16 a fanned 10♦ showed "1♦", as if a one-rank card.
const WASTE_FAN = 30;
const SUIT_WORDS = ['clubs', 'diamonds', 'hearts', 'spades'];
const SUITS = 'CDHS';
const colX = (i) => PAD + i * STEP;

export default {
  draw(board, obs) {
    const longest = Math.max(1, ...obs.columns.map((c) => c.length));
    const row2 = PAD + CARD_H + 30;
    board.begin(colX(7) - 12 + PAD, row2 + (longest - 1) * FAN + CARD_H + 30);
    const stock = { x: colX(0), y: PAD };
    if (obs.stock_count > 0) {
      board.cardBack(stock.x, stock.y, { key: 'stock', label: `stock, ${count(obs.stock_count, 'card')}: draw` });
    } else {
      const turn = obs.turns_left === 0 ? 'no turns left' : 'turn the waste over';
      board.slot(stock.x, stock.y, CARD_W, CARD_H, { key: 'stock', label: `empty stock: ${turn}`, caption: '↻' });
    }
    const turns = obs.turns_left === null ? '' : ` · ${obs.turns_left} turns`;
    board.text(stock.x + CARD_W / 2, PAD + CARD_H + 16, `stock ${obs.stock_count}${turns}`, {
      anchor: 'middle', size: 12,
    });
    // The waste: its last three cards fanned, only the top one free.
    const shown = obs.waste.slice(-3);
    shown.forEach((code, i) => {
      const top = i === shown.length - 1;
      board.card(colX(1) + i * WASTE_FAN, PAD, code, { key: top ? code : null, enter: stock });
    });
    if (shown.length === 0) board.slot(colX(1), PAD, CARD_W, CARD_H, { caption: 'waste' });

    obs.foundations.forEach((topCard, suit) => {
      const x = colX(3 + suit);
      const key = `f${suit}`;
      const label = `${SUIT_WORDS[suit]} foundation`;
      if (topCard) board.card(x, PAD, topCard, { key, label: `${label}, ${cardName(topCard)}` });
      else board.slot(x, PAD, CARD_W, CARD_H, { key, label, caption: SUIT_MARKS[SUITS[suit]] });
    });

    // The reserve: a thin stack under its face-up top card.
    const depth = Math.min(obs.reserve_count - 1, 4);
    for (let i = depth; i > 0; i -= 1) board.cardBack(colX(0) - i * 2, row2 - i * 2);
    if (obs.reserve_top) board.card(colX(0), row2, obs.reserve_top, { enter: 'fade' });
    else board.slot(colX(0), row2, CARD_W, CARD_H, { caption: '∅' });
    board.text(colX(0) + CARD_W / 2, row2 + CARD_H + 16, `reserve ${obs.reserve_count}`, {
      anchor: 'middle', size: 12,
    });

    obs.columns.forEach((column, i) => {
      const x = colX(3 + i);
      const key = `c${i + 1}`;
      if (column.length === 0) board.slot(x, row2, CARD_W, CARD_H, { key, label: `column ${i + 1}, empty` });
      column.forEach((code, depthIndex) => {
        const last = depthIndex === column.length - 1;
        board.card(x, row2 + depthIndex * FAN, code, {
          key: last ? `${code} ${key}` : null,
          label: last ? `${cardName(code)}, bottom of column ${i + 1}` : undefined,
        });
      });
    });
  },

  parse(move) {
    if (move === 'draw' || move === 'turn') return { from: 'stock', click: true };
    const [card, where] = move.split(' ');
    if (where === 'f') return { from: card, to: `f${SUITS.indexOf(card[1])}`, click: true };
    return { from: card, to: where };
  },

  label(move) {
    if (move === 'draw') return 'Draw a card';
    if (move === 'turn') return 'Turn the waste over';
    // In the names the cards show (10♠, not the notation's TS): the hint says this.
    const [card, where] = move.split(' ');
    const shown = cardShown(card);
    return where === 'f' ? `${shown} to its foundation` : `${shown} to column ${where.slice(1)}`;
  },

  // A chosen card clicked onto another suit's foundation: the move tried would name only
  // its own foundation ("9H f"), and the refusal would be about that one.
  stuck(keys, obs, view, chosen) {
    const foundation = keys.find((k) => /^f[0-3]$/.test(k));
    if (!chosen || !foundation || !/^[A2-9TJQK][CDHS]$/.test(chosen)) return null;
    const suit = Number(foundation[1]);
    if (SUITS[suit] === chosen[1]) return null;
    return `${cardShown(chosen)} cannot go on the ${SUIT_WORDS[suit]} foundation: a card goes`
      + " on its own suit's foundation.";
  },

  // The move tried (a card onto a foundation or a column that does not take it, or a free
  // card with no move, tried on its foundation), for the rules to say why not.
  attempt(chosen, keys) {
    const place = keys.find((k) => /^(f[0-3]|c[1-4])$/.test(k));
    if (chosen && place) return `${chosen} ${place[0] === 'f' ? 'f' : place}`;
    const card = keys.find((k) => /^[A2-9TJQK][CDHS]$/.test(k));
    return !chosen && card ? `${card} f` : null;
  },

  // The rules' refusals with cards as their faces show them (7♠, not the notation's 7S).
  words: cardsNamed,

  // How the deal ended, in a sentence with its figures: the end panel listed them ("stuck ·
  // cards on foundations 30 · reserve left 5 · turns used 3"). A deal stuck with cards
  // still in the waste says why it could not be turned over again.
  ending(termination, outcome, view) {
    const figures = outcome?.details ?? {};
    if (figures.cards_on_foundations === undefined) return null;
    const obs = view?.observation ?? {};
    const left = figures.reserve_left
      ? `${figures.reserve_left} left in the reserve` : 'the reserve empty';
    const cards = `${count(figures.cards_on_foundations, 'card')} on the foundations, ${left}`;
    const turns = figures.turns_used ?? 0;
    const allowed = obs.turns_left === null || obs.turns_left === undefined
      ? null : turns + obs.turns_left;
    let waste = '';
    if (allowed === null) waste = turns ? `; the waste turned over ${times(turns)}` : '';
    else if (allowed) waste = `; ${turns} of ${count(allowed, 'turn')} of the waste used`;
    // Why the waste, with cards still in it, could not be turned over (the stock is empty
    // once no move is left): the turns allowed are used up, or the last pass through the
    // stock brought no card into play or home (rules, ruling 2).
    const waiting = obs.waste?.length > 0;
    let stuck = 'No move left';
    if (waiting && obs.turns_left === 0) {
      if (allowed) stuck += ' and no more turns of the waste';
    } else if (waiting && obs.progress_since_turn === false) {
      stuck += ' (no card came into play or home on the last pass)';
    }
    const how = {
      won: `All ${count(figures.cards_on_foundations, 'card')} on the foundations`,
      stuck: `${stuck}: ${cards}`,
    }[termination] ?? `${endedAs(termination)}: ${cards}`;
    return `${how}${waste}.`;
  },

  summary(obs) {
    return `${obs.score} on the foundations`;
  },
};

/** "once", "twice", "3 times". */
const times = (n) => ({ 1: 'once', 2: 'twice' })[n] ?? count(n, 'time');
