// Our own SVG art: suit marks, the six fruits, cards, tiles and their backs.
// Shapes live once in a hidden <defs> and are drawn with <use>, so a table of 52 cards
// stays a small DOM.

export const NS = 'http://www.w3.org/2000/svg';

export const CARD_W = 56;
export const CARD_H = 80;
export const TILE = 60;

const SUIT_NAMES = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
export const SUIT_MARKS = { C: '♣', D: '♦', H: '♥', S: '♠' };
const RANK_NAMES = { A: 'ace', T: '10', J: 'jack', Q: 'queen', K: 'king' };
export const FRUITS = {
  M: { name: 'apples', one: 'apple', ink: '#b3261e', tint: '#fde7e4' },
  P: { name: 'pears', one: 'pear', ink: '#5f7d14', tint: '#f1f6dc' },
  C: { name: 'watermelons', one: 'watermelon', ink: '#1e6b34', tint: '#e2f3e6' },
  U: { name: 'grapes', one: 'grape', ink: '#6a1b9a', tint: '#efe3f6' },
  F: { name: 'strawberries', one: 'strawberry', ink: '#c2185b', tint: '#fde4ee' },
  B: { name: 'bananas', one: 'banana', ink: '#9a6b00', tint: '#fff5cf' },
};

/** "1 tile", "2 tiles": a count and its word. */
export const count = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Create an SVG element with attributes, appended to parent when given. */
export function svg(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

const SUITS = {
  H: '<path d="M50 92C20 68 4 50 4 30 4 14 16 4 29 4c11 0 18 7 21 16 3-9 10-16 21-16 13 0 25 10 25 26 0 20-16 38-46 62z"/>',
  D: '<path d="M50 3 88 50 50 97 12 50z"/>',
  S: '<path d="M50 4C80 30 96 45 96 62c0 14-11 22-23 22-10 0-16-6-19-11 1 10 5 17 13 23H33c8-6 12-13 13-23-3 5-9 11-19 11C15 84 4 76 4 62 4 45 20 30 50 4z"/>',
  C: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/>' +
     '<circle cx="50" cy="52" r="12"/><path d="M45 58c0 18-5 29-13 38h36c-8-9-13-20-13-38z"/>',
};

const FRUIT_ART = {
  M: `<path d="M50 30C38 19 10 21 10 50c0 27 21 45 40 38 19 7 40-11 40-38 0-29-28-31-40-20z" fill="#d62d20"/>
      <ellipse cx="31" cy="44" rx="7" ry="12" fill="#fff" opacity=".35" transform="rotate(25 31 44)"/>
      <path d="M50 31c0-10 2-18 7-25" stroke="#6b4226" stroke-width="5" fill="none" stroke-linecap="round"/>
      <path d="M56 16c8-10 22-10 28-5-7 9-19 11-28 5z" fill="#43a047"/>`,
  P: `<path d="M50 12c-11 0-13 13-13 23 0 10-19 17-19 37 0 15 14 24 32 24s32-9 32-24c0-20-19-27-19-37 0-10-2-23-13-23z" fill="#b5c934"/>
      <ellipse cx="36" cy="66" rx="6" ry="13" fill="#fff" opacity=".3"/>
      <path d="M50 14c0-6 1-9 4-12" stroke="#6b4226" stroke-width="5" fill="none" stroke-linecap="round"/>
      <path d="M53 8c7-6 17-5 21-1-6 6-15 6-21 1z" fill="#43a047"/>`,
  C: `<path d="M6 34a44 44 0 0 0 88 0z" fill="#2e7d32"/>
      <path d="M12 34a38 38 0 0 0 76 0z" fill="#f1f8e9"/>
      <path d="M16 34a34 34 0 0 0 68 0z" fill="#ef3b4f"/>
      <g fill="#222"><ellipse cx="35" cy="46" rx="3" ry="5"/><ellipse cx="50" cy="55" rx="3" ry="5"/>
      <ellipse cx="65" cy="46" rx="3" ry="5"/><ellipse cx="42" cy="62" rx="3" ry="4"/><ellipse cx="58" cy="62" rx="3" ry="4"/></g>`,
  U: `<path d="M50 18c0-8 3-12 8-15" stroke="#6b4226" stroke-width="5" fill="none" stroke-linecap="round"/>
      <path d="M54 12c9-8 24-4 28 2-9 6-20 5-28-2z" fill="#43a047"/>
      <g fill="#7b1fa2" stroke="#4a148c" stroke-width="2">
      <circle cx="26" cy="30" r="11"/><circle cx="50" cy="30" r="11"/><circle cx="74" cy="30" r="11"/>
      <circle cx="38" cy="50" r="11"/><circle cx="62" cy="50" r="11"/>
      <circle cx="26" cy="50" r="0"/><circle cx="50" cy="69" r="11"/>
      <circle cx="38" cy="86" r="0"/><circle cx="50" cy="88" r="9"/></g>
      <g fill="#fff" opacity=".35"><circle cx="22" cy="26" r="3"/><circle cx="46" cy="26" r="3"/><circle cx="34" cy="46" r="3"/></g>`,
  F: `<path d="M50 95C28 80 12 56 15 37c2-12 15-16 35-14 20-2 33 2 35 14 3 19-13 43-35 58z" fill="#e0262f"/>
      <g fill="#ffe082"><ellipse cx="32" cy="42" rx="2" ry="3"/><ellipse cx="50" cy="40" rx="2" ry="3"/>
      <ellipse cx="68" cy="42" rx="2" ry="3"/><ellipse cx="40" cy="57" rx="2" ry="3"/><ellipse cx="60" cy="57" rx="2" ry="3"/>
      <ellipse cx="50" cy="72" rx="2" ry="3"/><ellipse cx="28" cy="55" rx="2" ry="3"/><ellipse cx="72" cy="55" rx="2" ry="3"/></g>
      <path d="M50 30 36 18l-8 10 8-14 6-2 8 6 8-6 6 2 8 14-8-10z" fill="#2e7d32"/>
      <path d="M50 26V8" stroke="#2e7d32" stroke-width="5" stroke-linecap="round"/>`,
  B: `<path d="M16 22c4 46 40 74 76 52 3-3 1-9-4-8-30 13-56-8-62-46z" fill="#f6d02f" stroke="#b8901a" stroke-width="3"/>
      <path d="M22 30c8 28 30 42 56 40" stroke="#e0b000" stroke-width="3" fill="none"/>
      <path d="M14 16l6 10 6-4z" fill="#5d4037"/><circle cx="92" cy="70" r="3" fill="#5d4037"/>`,
};

/** Put the shared shapes into the page once. */
export function installDefs() {
  if (document.getElementById('ludoteca-defs')) return;
  const holder = svg('svg', { id: 'ludoteca-defs', width: 0, height: 0, 'aria-hidden': 'true' });
  holder.style.position = 'absolute';
  const defs = svg('defs', {}, holder);
  let markup = '';
  for (const [suit, shape] of Object.entries(SUITS)) {
    markup += `<symbol id="suit-${suit}" viewBox="0 0 100 100">${shape}</symbol>`;
  }
  for (const [fruit, shape] of Object.entries(FRUIT_ART)) {
    markup += `<symbol id="fruit-${fruit}" viewBox="0 0 100 100">${shape}</symbol>`;
  }
  markup += `<pattern id="back-cards" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="10" height="10" fill="#28507e"/><rect width="5" height="10" fill="#2f5d92"/></pattern>
    <pattern id="back-tiles" width="12" height="12" patternUnits="userSpaceOnUse">
      <rect width="12" height="12" fill="#3e6b47"/><circle cx="6" cy="6" r="2.2" fill="#4f8159"/></pattern>`;
  defs.innerHTML = markup;
  document.body.prepend(holder);
}

export function cardName(code) {
  const rank = RANK_NAMES[code[0]] ?? code[0];
  return `${rank} of ${SUIT_NAMES[code[1]]}`;
}

/** A card as its face shows it, for text: its index (10 for T) and suit mark, e.g. 10♠. */
export function cardShown(code) {
  return `${code[0] === 'T' ? '10' : code[0]}${SUIT_MARKS[code[1]]}`;
}

/** A tile for text, as its face shows it: its number and its fruit, e.g. 5 apples, 1 pear. */
export function tileName(code) {
  const fruit = FRUITS[code[1]];
  return `${code[0]} ${(code[0] === '1' ? fruit?.one : fruit?.name) ?? code[1]}`;
}

// The verbs the rules' texts put right after a tile, as they agree with a plural name.
const PLURAL = {
  fits: 'fit', is: 'are', has: 'have', does: 'do', matches: 'match', touches: 'touch',
  lies: 'lie', needs: 'need',
};
const PLURAL_AFTER = new RegExp(`\\b([2-6][MPCUFB]) (${Object.keys(PLURAL).join('|')})\\b`, 'g');

/** A text in notation (the rules' refusals and reasons) with its cards as their faces show
 * them: "7S: the spades foundation needs 2S" → "7♠: the spades foundation needs 2♠". */
export function cardsNamed(text) {
  return text.replace(/\b[A2-9TJQK][CDHS]\b/g, cardShown);
}

/** A text in notation with its fruit tiles as the page names them (5M → 5 apples); a verb
 * right after a tile named in the plural agrees with it ("6 bananas fit nowhere"), and a
 * list of tiles ("4B 6C") is written with commas. */
export function tilesNamed(text) {
  return text
    .replace(/\b([1-6][MPCUFB]) (?=[1-6][MPCUFB]\b)/g, '$1, ')
    .replace(PLURAL_AFTER, (_, code, verb) => `${tileName(code)} ${PLURAL[verb]}`)
    .replace(/\b[1-6][MPCUFB]\b/g, tileName);
}

const isRed = (code) => code[1] === 'H' || code[1] === 'D';

/** A face-up card drawn at (0, 0) into group g. */
export function drawCard(g, code, w = CARD_W, h = CARD_H) {
  const color = isRed(code) ? '#c62828' : '#1b1b1b';
  const rank = code[0] === 'T' ? '10' : code[0];
  svg('rect', { class: 'face card-face', x: 0.5, y: 0.5, width: w - 1, height: h - 1, rx: 6 }, g);
  const index = svg('text', {
    class: 'card-rank', x: 5, y: 21, fill: color,
    'font-size': rank.length > 1 ? 19 : 22, 'letter-spacing': rank.length > 1 ? -1.5 : 0,
  }, g);
  index.textContent = rank;
  svg('use', { href: `#suit-${code[1]}`, x: 6, y: 25, width: 14, height: 14, fill: color }, g);
  svg('use', { href: `#suit-${code[1]}`, x: w - 34, y: h - 40, width: 30, height: 30, fill: color }, g);
}

/** A face-down card. */
export function drawCardBack(g, w = CARD_W, h = CARD_H) {
  svg('rect', { class: 'face card-back', x: 0.5, y: 0.5, width: w - 1, height: h - 1, rx: 6 }, g);
  svg('rect', { x: 5, y: 5, width: w - 10, height: h - 10, rx: 4, fill: 'url(#back-cards)' }, g);
}

/** A face-up fruit tile: its number large, its fruit drawn. */
export function drawTile(g, code, size = TILE) {
  const fruit = FRUITS[code[1]];
  svg('rect', {
    class: 'face tile-face', x: 1, y: 1, width: size - 2, height: size - 2, rx: 8,
    fill: fruit.tint, stroke: fruit.ink,
  }, g);
  // A small tile (a seat's captures, 30 units) keeps its number clear of its edge, and of
  // the frame a piece just played gets inside it (board.mark): scaled down as the large
  // tile's, its number lay against that frame. It comes lower and in, its fruit smaller.
  const small = size < 40;
  const number = svg('text', {
    class: 'tile-number', x: small ? 7 : 6, y: size * (small ? 0.54 : 0.42), fill: fruit.ink,
    'font-size': size * 0.4,
  }, g);
  number.textContent = code[0];
  const art = size * (small ? 0.48 : 0.62);
  svg('use', { href: `#fruit-${code[1]}`, x: size - art - 3, y: size - art - 3, width: art, height: art }, g);
}

/** A face-down tile. */
export function drawTileBack(g, size = TILE) {
  svg('rect', { class: 'face tile-back', x: 1, y: 1, width: size - 2, height: size - 2, rx: 8 }, g);
  svg('rect', { x: 6, y: 6, width: size - 12, height: size - 12, rx: 5, fill: 'url(#back-tiles)' }, g);
}
