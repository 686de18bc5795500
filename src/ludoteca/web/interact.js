// From clicks, drags and keys to a legal move. The game module tells, for each legal move
// string, which drawn thing it starts from (`from`) and where it goes (`to`); this module
// does the rest the same way for every game:
//   - click a source: its targets light up; click a target: the move is sent;
//   - a source whose only move needs no target (`click`) plays at once, unless the move
//     asks to be confirmed (`confirm`); a double click plays a source's one `click` move;
//   - a game with one obvious source (a drawn tile) may have it selected from the start;
//   - drag a source onto a target does the same as the two clicks;
//   - Tab / arrow keys walk the sources (then the targets), Enter or Space clicks.
// When several moves share a source and a target, a small menu asks which one.
// A drawn thing may carry several keys (data-key="7H c2": a card that is also its column).

const DRAG_PX = 6;

export class Interaction {
  constructor(node, { play, choose, explain = null }) {
    this.node = node;
    this.play = play;
    this.choose = choose;
    // Asked when the player clicks something that has no move: the game may say why.
    // explain(keys, chosen): `chosen` is the source that was chosen then, if any; it
    // returns the key of a piece with no move to keep chosen, or null.
    this.explain = explain;
    this.moves = [];
    this.selected = null;
    this.preselected = null;
    this.drag = null;
    this.suppressClick = false;
    node.addEventListener('click', (e) => this.onClick(e));
    node.addEventListener('dblclick', (e) => this.onDoubleClick(e));
    node.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    node.addEventListener('pointermove', (e) => this.onPointerMove(e));
    node.addEventListener('pointerup', (e) => this.onPointerUp(e));
    node.addEventListener('pointercancel', () => {
      this.press = null;
      this.endDrag();
    });
    node.addEventListener('keydown', (e) => this.onKey(e));
    // A finger on the board scrolls the page (touch-action in the CSS), as a tall table
    // needs on a phone, unless it started on a piece that can be dragged: then it drags.
    node.addEventListener('touchmove', (e) => {
      if (this.drag) e.preventDefault();
    }, { passive: false });
  }

  /** New legal moves (after each frame): [{move, from, to, click, confirm, quiet}]. */
  update(moves, preselect = null) {
    this.moves = moves;
    this.bySource = new Map();
    for (const m of moves) {
      if (!this.bySource.has(m.from)) this.bySource.set(m.from, []);
      this.bySource.get(m.from).push(m);
    }
    // The obvious source (a drawn tile) stays chosen: a stray click or Esc comes back to it.
    this.preselected = preselect && this.targetsOf(preselect).size ? preselect : null;
    this.selected = this.preselected;
    this.paint();
  }

  nodes(key) {
    return this.node.querySelectorAll(`[data-key~="${CSS.escape(key)}"]`);
  }

  targetsOf(key) {
    return new Set((this.bySource.get(key) ?? []).map((m) => m.to).filter((t) => t != null));
  }

  /** Classes: movable sources, the selection, its targets; only those take the focus. */
  paint() {
    const targets = this.selected ? this.targetsOf(this.selected) : new Set();
    for (const node of this.node.querySelectorAll('[data-key]')) {
      const keys = node.dataset.key.split(' ');
      // A `quiet` source (a special move) answers clicks without inviting them.
      const movable = keys.some((k) => this.bySource.get(k)?.some((m) => !m.quiet));
      const target = keys.some((k) => targets.has(k));
      const selected = keys.includes(this.selected);
      node.classList.toggle('movable', movable && !this.selected);
      node.classList.toggle('selected', selected);
      node.classList.toggle('target', target && !selected);
      const active = this.selected ? target || selected : movable;
      node.setAttribute('tabindex', active ? '0' : '-1');
      node.setAttribute('role', 'button');
    }
  }

  hint(move) {
    for (const node of this.node.querySelectorAll('.hint')) node.classList.remove('hint');
    const found = this.moves.find((m) => m.move === move);
    if (!found) return false;
    for (const key of [found.from, found.to]) {
      if (key != null) for (const node of this.nodes(key)) node.classList.add('hint');
    }
    return true;
  }

  clear() {
    this.selected = this.preselected;
    this.paint();
  }

  /** A click on a thing with these keys: a target of the selection, else a source. */
  activate(keys) {
    if (this.selected) {
      const targets = this.targetsOf(this.selected);
      const hit = keys.find((k) => k !== this.selected && targets.has(k));
      if (hit) {
        this.between(this.selected, hit);
        return;
      }
    }
    const key = keys.find((k) => this.bySource.has(k));
    const from = this.bySource.get(key);
    if (!from) {
      const chosen = this.selected;
      this.clear();
      if (chosen && keys.includes(chosen)) return; // a piece with no move, let go
      // A piece with no move that the page keeps chosen: the next click tries it there.
      const tried = this.explain?.(keys, chosen);
      if (tried) {
        this.selected = tried;
        this.paint();
      }
      return;
    }
    const direct = (m) => m.click || m.to == null;
    if ((from.length === 1 && direct(from[0])) || from.every((m) => m.to == null)) {
      this.send(from);
    } else if (key === this.selected) {
      // A second click on the selection plays it when there is only one place to go.
      const targets = this.targetsOf(key);
      if (targets.size === 1) this.between(key, [...targets][0]);
      else this.clear();
    } else {
      this.selected = key;
      this.paint();
      this.node.querySelector('.target')?.focus?.({ preventScroll: true });
    }
  }

  between(from, to) {
    this.send(this.moves.filter((m) => m.from === from && m.to === to));
  }

  send(moves) {
    this.selected = this.preselected;
    this.paint();
    this.sentAt = performance.now();
    if (moves.length === 1 && !moves[0].confirm) this.play(moves[0].move);
    else if (moves.length > 0) this.choose(moves.map((m) => m.move));
  }

  onDoubleClick(event) {
    // The clicks of a double click may already have played; never play twice for one gesture.
    if (performance.now() - (this.sentAt ?? -1e9) < 500) return;
    const key = this.keysOf(event.target).find((k) => this.bySource.has(k));
    const direct = (this.bySource.get(key) ?? []).filter((m) => m.click);
    if (direct.length === 1) this.send(direct);
  }

  keysOf(node) {
    return node?.closest?.('[data-key]')?.dataset.key.split(' ') ?? [];
  }

  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const keys = this.keysOf(event.target);
    if (keys.length) this.activate(keys);
    else this.clear();
  }

  onPointerDown(event) {
    if (event.button !== 0) return;
    const keys = this.keysOf(event.target);
    const key = keys.find((k) => this.targetsOf(k).size > 0);
    if (!key) {
      // A piece with no move to drag (a Tappeto card that cannot go up): nothing follows the
      // pointer, and a finger still scrolls the page; dropped onto another piece or place,
      // the page says why not, as a click on it does (it said nothing).
      this.press = keys.length ? { keys, x: event.clientX, y: event.clientY } : null;
      return;
    }
    const piece = event.target.closest('[data-key]');
    this.drag = { key, piece, x: event.clientX, y: event.clientY, ghost: null };
  }

  onPointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_PX) return;
      this.node.setPointerCapture?.(event.pointerId);
      this.selected = drag.key;
      this.paint();
      drag.ghost = drag.piece.cloneNode(true);
      drag.ghost.classList.add('ghost');
      drag.ghost.removeAttribute('data-key');
      drag.ghost.removeAttribute('data-id');
      drag.start = this.point(drag.x, drag.y);
      drag.base = drag.piece.getAttribute('transform') ?? '';
      this.node.appendChild(drag.ghost);
      drag.piece.classList.add('dragging');
    }
    const p = this.point(event.clientX, event.clientY);
    drag.ghost.setAttribute(
      'transform', `translate(${p.x - drag.start.x} ${p.y - drag.start.y}) ${drag.base}`,
    );
  }

  onPointerUp(event) {
    const press = this.press;
    this.press = null;
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) >= DRAG_PX) {
      const under = this.keysOf(document.elementFromPoint(event.clientX, event.clientY));
      if (under.length && !under.includes(press.keys[0])) {
        // The click that follows lands on what both have in common: not a click on either.
        this.suppressClick = true;
        setTimeout(() => { this.suppressClick = false; }, 0);
        this.clear();
        this.explain?.(under, press.keys[0]);
        return;
      }
    }
    const drag = this.drag;
    if (!drag?.ghost) {
      this.drag = null;
      return;
    }
    this.suppressClick = true;
    this.endDrag();
    const targets = this.targetsOf(drag.key);
    const under = this.keysOf(document.elementFromPoint(event.clientX, event.clientY));
    const key = under.find((k) => k !== drag.key && targets.has(k));
    if (key) {
      this.between(drag.key, key);
    } else {
      this.clear();
      if (under.length && !under.includes(drag.key)) this.explain?.(under, drag.key);
    }
  }

  endDrag() {
    if (this.drag?.ghost) {
      this.drag.ghost.remove();
      this.drag.piece.classList.remove('dragging');
    }
    this.drag = null;
  }

  point(clientX, clientY) {
    const matrix = this.node.getScreenCTM().inverse();
    const p = new DOMPoint(clientX, clientY).matrixTransform(matrix);
    return { x: p.x, y: p.y };
  }

  onKey(event) {
    const keys = this.keysOf(event.target);
    if ((event.key === 'Enter' || event.key === ' ') && keys.length) {
      event.preventDefault();
      this.activate(keys);
      return;
    }
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (step[event.key]) {
      event.preventDefault();
      this.walk(event.target, ...step[event.key]);
    }
  }

  /** After a new frame, or Esc: the focus on the piece these keys name if it is still
   * active, else on the first active piece, else on the board itself (no piece can move:
   * the others' turn), so that it comes back to a piece on the next frame (it fell to the
   * page's body, and Tab started again from the top). The piece is its first key: Esc
   * passes the chosen key alone ("2C" of "2C c4"), which never equalled the whole of a
   * piece's keys. */
  refocus(keys) {
    const piece = keys.split(' ')[0];
    const active = [...this.node.querySelectorAll('[data-key][tabindex="0"]')];
    const found = active.find((n) => n.dataset.key.split(' ')[0] === piece);
    (found ?? active[0] ?? this.node).focus({ preventScroll: true });
  }

  /** Move the focus to the nearest active thing in that direction. */
  walk(current, dx, dy) {
    const active = [...this.node.querySelectorAll('[data-key][tabindex="0"]')];
    if (active.length === 0) return;
    if (!active.includes(current)) {
      active[0].focus();
      return;
    }
    const centre = (n) => {
      const r = n.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    };
    const from = centre(current);
    let best = null;
    let bestScore = Infinity;
    for (const node of active) {
      if (node === current) continue;
      const c = centre(node);
      const along = (c.x - from.x) * dx + (c.y - from.y) * dy;
      if (along <= 1) continue;
      const across = Math.abs((c.x - from.x) * dy) + Math.abs((c.y - from.y) * dx);
      const score = along + 2 * across;
      if (score < bestScore) {
        best = node;
        bestScore = score;
      }
    }
    best?.focus();
  }
}
