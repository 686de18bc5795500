// Tappeto: the foundations and the face-down reserve above the carpet. A carpet card that
// can go up plays with one click (or drag it onto its foundation).

import {
  CARD_H, CARD_W, SUIT_MARKS, cardName, cardShown, cardsNamed, count,
} from '../art.js';
import { endedAs } from '../ui.js';

const PAD = 12;
const STEP_X = CARD_W + 10;
const CARD = /^[A2-9TJQK][CDHS]$/; // a card's key, as its move names it
const STEP_Y = CARD_H + 10;
const SUITS = 'CDHS';
const SUIT_WORDS = ['clubs', 'diamonds', 'hearts', 'spades'];

const foundationKey = (suit) => `foundation-${suit}`;

export default {
  draw(board, obs) {
    // The reserve and the four foundations take five columns of the carpet's grid.
    const width = Math.max(obs.cols, 5) * STEP_X + PAD * 2 - 10;
    const top = PAD + CARD_H + 26;
    board.begin(width, top + obs.rows * STEP_Y + PAD);
    // The reserve at the left of the top row, the four foundations to its right.
    const reserveX = PAD;
    if (obs.reserve_count > 0) {
      board.cardBack(reserveX, PAD, { label: `reserve, ${count(obs.reserve_count, 'card')}` });
    } else {
      board.slot(reserveX, PAD, CARD_W, CARD_H, { caption: '∅' });
    }
    board.text(reserveX + CARD_W / 2, PAD + CARD_H + 16, `reserve ${obs.reserve_count}`, {
      anchor: 'middle', size: 13,
    });
    board.enterFrom = { x: reserveX, y: PAD };
    const firstFoundation = width - PAD - 4 * STEP_X + 10;
    obs.foundations.forEach((topCard, suit) => {
      const x = firstFoundation + suit * STEP_X;
      const label = `${SUIT_WORDS[suit]} foundation`;
      if (topCard) board.card(x, PAD, topCard, { key: foundationKey(suit), label: `${label}, ${cardName(topCard)}` });
      else board.slot(x, PAD, CARD_W, CARD_H, { key: foundationKey(suit), label, caption: SUIT_MARKS[SUITS[suit]] });
    });
    obs.carpet.forEach((card, cell) => {
      const x = PAD + (cell % obs.cols) * STEP_X;
      const y = top + Math.floor(cell / obs.cols) * STEP_Y;
      if (card) board.card(x, y, card);
      else board.slot(x, y, CARD_W, CARD_H, { label: 'gap' });
    });
  },

  parse(move) {
    return { from: move, to: foundationKey(SUITS.indexOf(move[1])), click: true };
  },

  // The hint says it in the names the cards show (10♠, not the notation's TS).
  label(move) {
    return `${cardShown(move)} to its foundation`;
  },

  // A card dragged onto another suit's foundation (or onto anything but a foundation): a
  // card goes up only on its own suit's, which its move (7S) names alone.
  stuck(keys, obs, view, chosen) {
    if (!chosen || !CARD.test(chosen)) return null;
    const own = SUITS.indexOf(chosen[1]);
    const foundation = keys.find((k) => /^foundation-[0-3]$/.test(k));
    if (foundation && Number(foundation.slice(-1)) !== own) {
      return `${cardShown(chosen)} cannot go on the ${SUIT_WORDS[Number(foundation.slice(-1))]}`
        + " foundation: a card goes on its own suit's foundation.";
    }
    if (!foundation && view.legal_moves.includes(chosen)) {
      return `${cardShown(chosen)} goes only on the ${SUIT_WORDS[own]} foundation.`;
    }
    return null;
  },

  // A carpet card that cannot go up, clicked or dragged: the move tried, for the rules to
  // say why not.
  attempt(chosen, keys) {
    if (chosen && CARD.test(chosen)) return chosen;
    return keys.find((k) => CARD.test(k)) ?? null;
  },

  // The rules' refusals with cards as their faces show them (7♠, not the notation's 7S).
  words: cardsNamed,

  // How the deal ended, in a sentence with its figures: the end panel listed them ("stuck ·
  // cards on foundations 8 · reserve left 24").
  ending(termination, outcome) {
    const figures = outcome?.details ?? {};
    if (figures.cards_on_foundations === undefined) return null;
    const home = `${count(figures.cards_on_foundations, 'card')} on the foundations`;
    const left = figures.reserve_left
      ? `${figures.reserve_left} left in the reserve` : 'the reserve empty';
    const how = {
      won: `All ${home}`,
      stuck: `No carpet card can go up: ${home}, ${left}`,
    }[termination] ?? `${endedAs(termination)}: ${home}, ${left}`;
    return `${how}.`;
  },

  summary(obs) {
    return `${obs.score} on the foundations`;
  },
};
