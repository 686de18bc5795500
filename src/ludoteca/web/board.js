// The drawing surface a game module draws on. Pieces (cards, tiles) carry an id, so a
// piece that moves between two states slides from its old place to its new one (FLIP);
// anything with a key is something the player can click, drag or reach with the keyboard.

import {
  CARD_H, CARD_W, TILE, cardName, drawCard, drawCardBack, drawTile, drawTileBack, svg, tileName,
} from './art.js';

const SLIDE_MS = 300;
const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export class Board {
  constructor(node) {
    this.node = node;
    this.positions = new Map();
    this.root = null;
  }

  /** Start a new frame of width x height user units. `tall`: the frame is drawn at least
   * life size, the page scrolling (by default when it is taller than wide). */
  begin(width, height, tall = height > width) {
    this.previous = this.positions;
    this.positions = new Map();
    this.enterFrom = null;
    this.node.setAttribute('viewBox', `0 0 ${width} ${height}`);
    // A table taller than wide (Domino's rows, long columns) may be as tall as its own units,
    // so that it is never drawn smaller than life to fit the window: the page scrolls
    // instead. A wide one (Gaps's four rows) still fits the window's height, all in view.
    this.node.style.setProperty('--board-h', tall ? `${height}px` : '0px');
    this.width = width;
    this.height = height;
    this.root?.remove();
    this.root = svg('g', { class: 'scene' }, this.node);
  }

  group(attrs = {}) {
    return svg('g', attrs, this.root);
  }

  /** Make node clickable as `key` (what move parsers name), with a spoken label. */
  keyed(node, key, label) {
    node.dataset.key = key;
    node.setAttribute('aria-label', label);
    this.focusRing(node);
    return node;
  }

  /** The keyboard's focus on a piece (style.css shows it on :focus-visible only): a ring
   * around its face, a dark line on its edge for the piece and a white one outside it for
   * the felt, each at 3:1 at least against what it lies on (a white edge on a white card,
   * with no outline, was all it showed). */
  focusRing(node) {
    const face = node.querySelector('.face, .slot-rect');
    if (!face) return;
    const [x, y, w, h, rx] = ['x', 'y', 'width', 'height', 'rx']
      .map((name) => Number(face.getAttribute(name)) || 0);
    const ring = svg('g', { class: 'focus-ring', 'aria-hidden': 'true' }, node);
    for (const [cls, out] of [['outer', 5.5], ['inner', 2.5]]) {
      svg('rect', {
        class: cls, x: x - out, y: y - out, width: w + 2 * out, height: h + 2 * out, rx: rx + out,
      }, ring);
    }
  }

  /** A place to tap larger than the drawing (x, y, w, h in the piece's own units), unseen:
   * a finger needs about 44 px where a card or an arrow is drawn smaller. */
  hitArea(g, x, y, w, h) {
    g.prepend(svg('rect', { class: 'hit', x, y, width: w, height: h }));
    return g;
  }

  /** A piece: a group at (x, y) that slides when it moves between frames. A new piece
   * comes in from `enter` ({x, y}, else the board's `enterFrom`), or fades in ('fade'). */
  piece(id, x, y, enter = null) {
    const g = svg('g', { class: 'piece', transform: `translate(${x} ${y})` }, this.root);
    if (id) {
      g.dataset.id = id;
      this.positions.set(id, { x, y, node: g, enter });
    }
    return g;
  }

  card(x, y, code, {
    key = code, id = code, label = cardName(code), w = CARD_W, h = CARD_H, enter = null, cls = '',
  } = {}) {
    const g = this.piece(id, x, y, enter);
    if (cls) g.classList.add(cls);
    drawCard(g, code, w, h);
    if (key) this.keyed(g, key, label);
    return g;
  }

  cardBack(x, y, { key = null, id = null, label = 'face-down card', w = CARD_W, h = CARD_H } = {}) {
    const g = this.piece(id, x, y);
    drawCardBack(g, w, h);
    if (key) this.keyed(g, key, label);
    return g;
  }

  tile(x, y, code, {
    key = code, id = code, label = tileName(code), size = TILE, enter = null,
  } = {}) {
    const g = this.piece(id, x, y, enter);
    drawTile(g, code, size);
    if (key) this.keyed(g, key, label);
    return g;
  }

  tileBack(x, y, { key = null, id = null, label = 'face-down tile', size = TILE } = {}) {
    const g = this.piece(id, x, y);
    drawTileBack(g, size);
    if (key) this.keyed(g, key, label);
    return g;
  }

  /** An empty place (a gap, a foundation, a cell): dashed, with an optional caption. */
  slot(x, y, w, h, {
    key = null, label = '', caption = '', rx = 6, captionSize = Math.min(18, w / 3), hit = null,
  } = {}) {
    const g = svg('g', { class: 'slot', transform: `translate(${x} ${y})` }, this.root);
    if (hit) this.hitArea(g, ...hit);
    svg('rect', { class: 'slot-rect', x: 1, y: 1, width: w - 2, height: h - 2, rx }, g);
    if (caption) {
      const text = svg('text', {
        class: 'slot-caption', x: w / 2, y: h / 2 + 6, 'text-anchor': 'middle',
        'font-size': captionSize,
      }, g);
      text.textContent = caption;
    }
    if (key) this.keyed(g, key, label || caption || key);
    return g;
  }

  text(x, y, content, { cls = 'label', anchor = 'start', size = 14, parent = this.root } = {}) {
    const node = svg('text', { class: cls, x, y, 'text-anchor': anchor, 'font-size': size }, parent);
    node.textContent = content;
    return node;
  }

  /** Mark the piece drawn as `id` as changed by another seat's move since this seat's last
   * one (table.js asks the game module which): a frame on its face's edge, a shape and not a
   * colour only, with no veil over the piece, and its spoken label says so. Only a piece
   * drawn with an id can be marked: a face-down tile or card drawn without one (a hidden
   * hand, a pile) never is. */
  mark(id) {
    const node = this.positions.get(id)?.node;
    if (!node || node.classList.contains('just-played')) return;
    node.classList.add('just-played');
    // A marked piece is shown whole at once, its frame fading in alone: the piece's own
    // fade-in (board.end) laid a grey veil of felt over it, which read as a disabled piece.
    this.positions.get(id).fade?.cancel();
    const face = node.querySelector('.face'); // (every card and tile has one: art.js)
    const [x, y, w, h, rx] = ['x', 'y', 'width', 'height', 'rx'].map((name) => Number(face.getAttribute(name)));
    // Two lines: a light one on the piece's edge, for the felt, and a dark one just inside
    // it, for the piece. Drawn within the piece's own box: a ring outside it touched the line
    // of text above a row of small tiles (a Scalafrutta seat's last split).
    const ring = svg('g', { class: 'played-mark', 'aria-hidden': 'true' }, node);
    svg('rect', { class: 'outer', x: x - 1, y: y - 1, width: w + 2, height: h + 2, rx: rx + 1 }, ring);
    svg('rect', {
      class: 'inner', x: x + 1.5, y: y + 1.5, width: w - 3, height: h - 3, rx: Math.max(0, rx - 1.5),
    }, ring);
    const label = node.getAttribute('aria-label');
    if (label) node.setAttribute('aria-label', `${label}, just played`);
  }

  /** Slide moved pieces, fade in new ones (from `enterFrom` when the game sets it). */
  end() {
    if (this.previous.size === 0 || reducedMotion()) return;
    for (const [id, now] of this.positions) {
      const before = this.previous.get(id);
      if (before && (before.x !== now.x || before.y !== now.y)) {
        slide(this.root, now.node, before, now);
      } else if (!before && (now.enter ?? this.enterFrom) && now.enter !== 'fade') {
        slide(this.root, now.node, now.enter ?? this.enterFrom, now);
      } else if (!before) {
        now.fade = now.node.animate([{ opacity: 0 }, { opacity: 1 }], { duration: SLIDE_MS });
      }
    }
  }
}

function slide(root, node, from, to) {
  // Lift the piece above the others while it travels, then put it back in its layer.
  const marker = document.createComment('');
  keepingFocus(node, () => {
    node.replaceWith(marker);
    root.appendChild(node);
  });
  const animation = node.animate(
    [
      { transform: `translate(${from.x}px, ${from.y}px)` },
      { transform: `translate(${to.x}px, ${to.y}px)` },
    ],
    { duration: SLIDE_MS, easing: 'cubic-bezier(.2,.7,.3,1)' },
  );
  const settle = () => {
    if (marker.isConnected) keepingFocus(node, () => marker.replaceWith(node));
  };
  animation.onfinish = settle;
  animation.oncancel = settle;
}

/** Moving a node in the document takes the keyboard focus off it: give it back. */
function keepingFocus(node, move) {
  const focused = node.contains(document.activeElement) ? document.activeElement : null;
  move();
  if (focused && !node.contains(document.activeElement)) focused.focus({ preventScroll: true });
}

export { CARD_H, CARD_W, TILE };
