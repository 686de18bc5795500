// The table view: joins a room, draws each state with the game's module (or the generic
// fallback), turns clicks into legal moves, and offers undo, redo, hint, restart, rules.

import { Board } from './board.js';
import fallback from './fallback.js';
import { Interaction } from './interact.js';
import {
  claimAnswered, claimToken, playerName, saveSeats, savedSeat,
} from './net.js';
import { markWide, sidewaysNote, tap } from './touch.js';
import {
  capitalise, clearRefusal, clearToast, seatName, showRules, toast, variantWords,
} from './ui.js';

const modules = new Map();
let tables = null;

/** The game's table module, or the generic one when the game has none yet. */
function gameModule(name) {
  tables ??= fetch('/api/games')
    .then((answer) => answer.json())
    .then((catalog) => new Set(catalog.games.filter((g) => g.table).map((g) => g.name)));
  if (!modules.has(name)) {
    const loading = tables
      .then((known) => (known.has(name)
        ? import(`./games/${name}.js`).then((found) => found.default)
        : fallback))
      .catch((err) => {
        console.warn(`the table of ${name} did not load (${err.message}): using the generic one`);
        return fallback;
      });
    modules.set(name, loading);
  }
  return modules.get(name);
}

export async function showTable(main, connection, room, link) {
  // A link's seat is tried, and kept only once the server's `joined` accepts it: saved at
  // once, a wrong token replaced the seat that worked here, and no link opened it again.
  let seat = seatToOpen(room, link);
  if (!seat) {
    // A game that does not exist (a mistyped or old link) says so in plain words, where it
    // said only that this browser holds no seat there.
    const found = await fetch(`/api/rooms/${encodeURIComponent(room)}`).then((r) => r.json()).then((r) => r.exists !== false, () => true);
    main.innerHTML = `<section class="notice"><p class="refused"></p>
      <p><a class="button" href="#/">Back to the games</a></p></section>`;
    main.querySelector('.refused').textContent = found
      ? 'This browser holds no seat at that table: open it from the browser that played it, or from the link you were sent.'
      : `This game does not exist, or no longer exists: there is no game '${room}' on this server.`;
    return () => {};
  }
  main.innerHTML = `
    <section class="table-page">
      <div class="bar">
        <div class="title"><h1>…</h1><span class="practice" role="note" hidden>practice</span><span class="meta"></span></div>
        <div class="tools">
          <button type="button" data-act="undo" title="Undo (U)" aria-keyshortcuts="U" disabled>↶ Undo</button>
          <button type="button" data-act="redo" title="Redo (Y)" aria-keyshortcuts="Y" disabled>↷ Redo</button>
          <button type="button" data-act="hint" title="Hint (H)" aria-keyshortcuts="H" disabled>Hint</button>
          <button type="button" data-act="restart" title="Deal the same cards again" disabled>Restart</button>
          <button type="button" data-act="rules" title="Rules (?)" disabled>Rules</button>
          <a class="button" href="#/">Home</a>
        </div>
      </div>
      <p class="handed" role="alert" hidden>This seat was opened by a link that carries its
        key, not by an invitation: whoever gave you that link can see your hand.</p>
      <p class="status" aria-live="polite"></p>
      <p class="sideways">Turn your phone sideways to see the table larger.
        <button type="button" aria-label="Dismiss this note">✕</button></p>
      <div class="board-wrap">
        <svg class="board" role="group" aria-label="the table" tabindex="-1"></svg>
        <div class="end-panel" hidden></div>
      </div>
      <div class="chooser" role="group" aria-label="which move" hidden></div>
      <div class="actions" aria-label="moves"></div>
      <details class="invites" hidden><summary>Invite the other players</summary>
        <p>Copy each person's link and send it to them. A link works once, for whoever opens it
          first: don't open it yourself. If a friend's link says it was used, someone else took
          that seat and can see its tiles.</p><ul></ul></details>
      <p class="keys"></p>
    </section>`;
  const page = main.querySelector('.table-page');
  sidewaysNote(page);
  // The move buttons' room under the board, measured again whenever they change or wrap.
  // (and the menu that asks which move, under the board too)
  const measuring = new ResizeObserver(() => measureActions(page));
  measuring.observe(page.querySelector('.actions'));
  measuring.observe(page.querySelector('.chooser'));
  const svgNode = page.querySelector('svg.board');
  const board = new Board(svgNode);
  let view = null;
  let module = fallback;
  // A game opened (Play, a link, a reload): the focus goes to the board's first piece that
  // can move once there is one (it stayed on the page's body, the board 4 or 5 Tabs away).
  let focusWaits = true;
  let thinking = false;

  // The others' moves since this seat's last one, for the status line and the board's
  // marks: with several bots, each moves before this seat's turn comes again, and the state
  // tells only the last. Each comes with the observations this seat was shown before it
  // (null where this page did not see that state) and after it, so that a game module can
  // tell what it changed. `seen`: the states of the line now played, one a ply (an undo or a
  // restart cuts it back; the same ply again, a reconnection, replaces its state).
  let others = [];
  let seen = [];
  const noteOthers = (state) => {
    seen = [...seen.filter((s) => s.ply < state.ply).slice(1 - SEEN), state];
    others = [];
    for (let i = seen.length - 1; i >= 0; i -= 1) {
      const { ply, last_move: last, observation } = seen[i];
      if (!last || last.seat === state.seat) break;
      const before = seen[i - 1]?.ply === ply - 1 ? seen[i - 1].observation : null;
      others.unshift({ ...last, before, after: observation });
      if (!before) break;
    }
  };
  // An undo against bots takes back this seat's last move and the bots' replies to it: the
  // ply it was asked at (the latest seen until its answer comes), to say how many.
  let undoneFrom = null;
  const noteUndone = (state) => {
    if (undoneFrom === null) return null;
    if (state.ply >= undoneFrom) {
      undoneFrom = state.ply; // (a bot's move that crossed the undo on its way)
      return null;
    }
    const replies = undoneFrom - state.ply - 1;
    undoneFrom = null;
    return replies > 0 ? tookBack(replies, state) : null;
  };
  // Taken back past a move that showed hidden tiles, the game is practice from then on: the
  // server says why, and the page says it once, when it becomes so (a page opened on the
  // game later shows only the mark by the title).
  const notePractice = (state) => (
    state.practice && view && !view.practice ? state.practice_notice ?? state.practice_label : null
  );

  let sent = null;
  const play = (move) => {
    if (!connection.online) return; // (the board is shut meanwhile: see showConnection)
    sent = move;
    connection.send('move', { move, ply: view?.ply ?? null });
  };
  const chooser = page.querySelector('.chooser');
  const choose = (moves) => {
    // Several moves: which one; a single one is a move that asks to be confirmed.
    chooser.innerHTML = moves.length > 1 ? '<p>Which move?</p>' : '<p>Are you sure?</p>';
    for (const move of moves) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = module.label?.(move, view.observation, view) ?? move;
      button.addEventListener('click', () => {
        chooser.hidden = true;
        svgNode.focus({ preventScroll: true }); // (the next position's first piece, then)
        play(move);
      });
      chooser.appendChild(button);
    }
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'link';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => {
      chooser.hidden = true;
      interaction.refocus(interaction.selected ?? '');
    });
    chooser.appendChild(cancel);
    // Under the board, in view with it: centred over the board, it lay on the square and
    // the seats' lines it asks about (Scalafrutta: who receives the pushed tile). The board
    // leaves it room in the window's height, as it does the move buttons.
    chooser.hidden = false;
    measureActions(page);
    chooser.querySelector('button').focus({ preventScroll: true });
    chooser.scrollIntoView({ block: 'nearest' });
  };
  // A click on something that cannot move, or on a place the chosen piece cannot go: the
  // game module may say why itself (gaps: `stuck`), or name the move the player tried
  // (`attempt`), which goes to the server so that the rules say why not in their words
  // (the `illegal` error is shown like any other). The page itself decides no rule.
  // Returns the piece to keep chosen: one tried alone whose moves go somewhere (an Acme
  // card, an Il Muro tile; not a Tappeto card), so that a click on a place next tries it
  // there. Without it, 9♥ clicked then column 2 tried the 3♠ at the bottom of column 2.
  const explain = (keys, chosen) => {
    if (!view || !view.your_turn || view.outcome) return null;
    const why = module.stuck?.(keys, view.observation, view, chosen ?? null);
    if (why) {
      toast(why, 'error'); // (a refusal, as the rules' own)
      return null;
    }
    const tried = module.attempt?.(chosen ?? null, keys, view.observation, view);
    if (!tried || view.legal_moves.includes(tried)) return null;
    play(tried);
    const where = chosen ? null : module.parse(tried, view.observation, view);
    return where?.to != null ? where.from : null;
  };
  const interaction = new Interaction(svgNode, { play, choose, explain });

  const act = {
    undo: () => {
      undoneFrom = view?.ply ?? null;
      connection.send('undo');
    },
    redo: () => connection.send('redo'),
    hint: () => {
      // One hint at a time: pressing H again while it thinks asked for another, and each
      // waited for the one before.
      if (thinking) return;
      thinking = true;
      setTimeout(() => { thinking = false; }, 15000); // (a connection lost meanwhile)
      toast('Thinking…');
      connection.send('hint');
    },
    restart: () => {
      if (!view?.ply || window.confirm('Start this deal again from the beginning?')) {
        connection.send('restart');
      }
    },
    rules: () => showRules(view?.game),
  };
  for (const button of page.querySelectorAll('[data-act]')) {
    button.addEventListener('click', () => act[button.dataset.act]());
  }

  const render = async (next) => {
    // The game has just ended: an old refusal or hint no longer applies, and it covered
    // the end panel for its few seconds.
    if (next.outcome && view && !view.outcome) clearToast();
    // A move, undo, redo or restart accepted (the position changed): a refusal shown still
    // read as if the latest action had been refused. (An undo's own toast, "Took back…",
    // has replaced it already; the same position sent again, a reconnection, leaves it.)
    else if (view && (next.ply !== view.ply || next.room !== view.room)) clearRefusal();
    view = next;
    const loaded = await gameModule(next.game);
    if (view !== next) return; // a newer state arrived while the module loaded
    module = loaded;
    const obs = next.observation;
    chooser.hidden = true;
    // Drawing replaces every piece: a keyboard player's focus would fall back to the top of
    // the page after each move. Keep it on the board (the same piece, else the first one,
    // else the board itself: the bots' turns, when no piece can move).
    const inBoard = svgNode.contains(document.activeElement);
    const focused = inBoard || (focusWaits && document.activeElement === document.body)
      ? (inBoard && document.activeElement.closest('[data-key]')?.dataset.key) || '' : null;
    module.draw(board, obs, next);
    board.end();
    if (others.length) for (const id of module.marked?.(others, obs, next) ?? []) board.mark(id);
    markWide(page, board);
    const parsed = [];
    const loose = [];
    for (const move of next.legal_moves) {
      const where = module.parse(move, obs, next);
      if (where && where.from != null) parsed.push({ move, ...where });
      else loose.push(move);
    }
    interaction.update(parsed, module.preselect?.(obs, next) ?? null);
    if (focused !== null) interaction.refocus(focused);
    focusWaits = focused !== null && !svgNode.contains(document.activeElement);
    showActions(page.querySelector('.actions'), loose, module, next, play);
    showBar(page, next, module, others);
    showEnd(page.querySelector('.end-panel'), page.querySelector('.actions'), next, connection, module, act.undo);
    roomForActions(page, next.your_turn && parsed.length === 0 && loose.length > 0 ? `${next.room}:${next.ply}` : null);
    showInvites(page.querySelector('.invites'), next);
    page.querySelector('.handed').hidden = !wasHanded(next);
    // For people nothing; for scripts and tests a stable sign of which state is shown.
    Object.assign(page.dataset, {
      game: next.game, ply: String(next.ply), turn: String(next.your_turn), over: String(!!next.outcome),
    });
    showConnection(page, connection.online);
  };

  const stop = connection.listen((event) => {
    if (event.type === 'connection') {
      showConnection(page, event.online);
    } else if (event.type === 'state' && event.room === room) {
      noteOthers(event);
      const said = [noteUndone(event), notePractice(event)].filter(Boolean);
      if (said.length) toast(said.join(' '));
      render(event);
    } else if (event.type === 'joined' && event.room === room) {
      // A claimed invitation's token is the seat's: the seat opens with it from now on,
      // and the address drops the used link. (Until this answer comes, a rejoin claims
      // again with the same token: the server takes it as the same claim.)
      // A token from the address is marked as handed over, unless this browser held it.
      const claimed = seat.invite !== undefined;
      const handed = seat.fromAddress === true;
      const keyed = seat.fromAddress !== undefined; // (a token in the address)
      seat = { seat: event.seat, token: seat.token };
      const tokens = { ...event.tokens, [event.seat]: seat.token };
      saveSeats(room, event.seat, tokens, event.invites, handed);
      if (claimed) {
        claimAnswered(room, event.seat);
        history.replaceState(null, '', `#/room/${room}`);
      } else if (keyed) {
        // Kept here now: the key leaves the address, which people copy and pass on (the
        // page's own links to a seat carry none either).
        history.replaceState(null, '', `#/room/${room}/${event.seat}`);
      }
    } else if (event.type === 'joined' && event.room !== room) {
      saveSeats(event.room, event.seat, event.tokens, event.invites);
      location.hash = `#/room/${event.room}`;
    } else if (event.type === 'hint') {
      thinking = false;
      // A hint for a position the game has left (a move made while it thought) is dropped.
      if (event.ply == null || event.ply === view?.ply) showHint(page, interaction, event, module, view);
    } else if (event.type === 'error' && event.code !== 'stale') {
      if (event.request === 'hint') thinking = false;
      if (event.request === 'undo') undoneFrom = null;
      // A stale move crossed a newer state on its way: that state is already shown.
      const refused = ['unknown-room', 'forbidden', 'broken', 'bad-seat'].includes(event.code);
      if (refused && event.request === 'join' && !view) {
        // No table to show (a link to a game this server does not have, a wrong seat):
        // say so, with the way home, instead of an empty felt under live buttons.
        main.innerHTML = `<section class="notice"><p class="refused"></p>
          <p><a class="button" href="#/">Back to the games</a></p></section>`;
        // A refused invitation says all by itself ("This seat's invitation was used
        // already: …"), where "This game cannot be opened: this seat's …" read as two.
        const claim = seat.invite !== undefined && event.code === 'forbidden';
        // A game that does not exist says so first, in plain words.
        main.querySelector('.refused').textContent = claim
          ? `${capitalise(event.message)}.`
          : event.code === 'unknown-room'
            ? `This game does not exist, or no longer exists: there is no game '${room}' on this server.`
            : `This game cannot be opened: ${event.message}.`;
        return;
      }
      toast(event.code === 'illegal' ? refusal(event.message, sent, module, view) : event.message, 'error');
    }
  });
  // (With an invitation, a claim: its token is the one this browser chose and kept. The
  // name: the one the seat's results count for, given with the claim.)
  const join = () => connection.send('join', {
    room, seat: seat.seat, token: seat.token, invite: seat.invite ?? null, player: playerName(),
  });
  connection.onReopen = join;
  join();

  const onKey = (event) => {
    if (event.target.closest('input, select, textarea') || document.querySelector('dialog[open]')) {
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    // (the connection lost, only the rules and Esc: undo, redo and hint ask the server)
    if (!connection.online && !['?', 'escape'].includes(key)) return;
    if (key === 'escape') {
      chooser.hidden = true;
      // The focus goes back to the piece that was chosen: it stayed on a lit place that
      // could no longer be chosen, where Enter did nothing.
      const chosen = interaction.selected;
      interaction.clear();
      if (chosen && svgNode.contains(document.activeElement)) interaction.refocus(chosen);
    } else if (key === 'u' || key === 'z') {
      if (view?.can_undo) act.undo();
    } else if (key === 'y') {
      if (view?.can_redo) act.redo();
    } else if (key === 'h') {
      if (view?.can_hint) act.hint();
    } else if (key === '?') {
      if (view) act.rules();
    } else if (
      ['arrowleft', 'arrowright', 'arrowup', 'arrowdown'].includes(key) &&
      !event.target.closest('svg.board')
    ) {
      event.preventDefault();
      interaction.walk(null, 0, 0);
    }
  };
  document.addEventListener('keydown', onKey);
  return () => {
    stop();
    connection.onReopen = null;
    document.removeEventListener('keydown', onKey);
  };
}

/** The connection lost: the board, its move buttons and end panel take no click nor key
 * (inert), dimmed, the status line says the game waits for the connection, and the buttons
 * that ask the server something are disabled, so that nothing seems to be played that the
 * server never gets (net.js's banner says why). Back, the board takes moves again, the status
 * line is the game's again, and the state that answers the rejoin sets the buttons. */
function showConnection(page, online) {
  page.dataset.offline = String(!online);
  for (const part of page.querySelectorAll('.board-wrap, .actions, .chooser')) part.inert = !online;
  // The status line said "Your move." while no move could be made: it says what the game
  // waits for (a finished game still says it is over), and its own line once it is back.
  const line = page.querySelector('.status');
  if (line.dataset.line !== undefined && line.dataset.over !== 'true') {
    const waiting = 'Waiting for the connection to the server…';
    const text = online ? line.dataset.line : waiting;
    if (line.textContent !== text) line.textContent = text;
  }
  if (online) return;
  for (const act of ['undo', 'redo', 'hint', 'restart']) {
    page.querySelector(`.tools [data-act=${act}]`).disabled = true;
  }
}

/** How many states of the line played the page keeps (see noteOthers): more than the
 * moves between two of this seat's, with three bots that draw and then place. */
const SEEN = 64;

/** What an undo against bots took back, besides this seat's move: "Took back your move and
 * the bots' 2 replies." The page showed only the board of an earlier turn. */
function tookBack(replies, view) {
  const bots = view.seats.filter((s, seat) => seat !== view.seat && s.kind !== 'human').length;
  const whose = bots > 1 ? "the bots'" : "the bot's";
  return `Took back your move and ${whose} ${replies === 1 ? 'reply' : `${replies} replies`}.`;
}

function showBar(page, view, module, others) {
  page.querySelector('.title h1').textContent = view.title;
  // "Standard (ranks 5)", not gaps[ranks=5]
  const parts = [variantWords(view.variant_key, { [view.variant]: view.variant_title })];
  if (view.seed !== null) parts.push(`deal ${view.seed}`);
  parts.push(`move ${view.ply}`);
  // A module's summary: its words, or {text, full} where the line shows them short (Il
  // Muro's "no progress 0/100"), the full ones in its tooltip and for a screen reader.
  const summary = module.summary?.(view.observation, view);
  const { text = summary, full = text } = typeof summary === 'object' && summary ? summary : {};
  const metaLine = (words) => [...parts, ...(words ? [words] : [])].join(' · ');
  const meta = page.querySelector('.title .meta');
  if (full === text) {
    meta.textContent = metaLine(text);
    meta.removeAttribute('title');
  } else {
    meta.replaceChildren(
      Object.assign(document.createElement('span'), { textContent: metaLine(text) }),
      Object.assign(document.createElement('span'), { className: 'sr-only', textContent: metaLine(full) }),
    );
    meta.firstChild.setAttribute('aria-hidden', 'true');
    meta.title = metaLine(full);
  }
  // A practice game says so by its title, and what that means to a screen reader.
  const practice = page.querySelector('.title .practice');
  practice.hidden = !view.practice;
  practice.title = view.practice_label ?? '';
  practice.setAttribute('aria-label', view.practice_label ?? 'practice');
  document.getElementById('where').textContent = view.title;
  document.title = `${view.title} · ludoteca`;
  const tools = page.querySelector('.tools');
  const people = withPeople(view);
  const button = (act, enabled, title) => {
    const node = tools.querySelector(`[data-act=${act}]`);
    node.disabled = !enabled;
    node.title = title;
  };
  // With another person at the table there is no undo, redo nor restart: the buttons are
  // not shown (disabled, they filled a phone's toolbar row, their reason in a tooltip a
  // phone never shows).
  button('undo', view.can_undo, 'Undo (U)');
  button('redo', view.can_redo, 'Redo (Y)');
  button('restart', view.can_restart, 'Deal the same cards again');
  for (const act of ['undo', 'redo', 'restart']) {
    tools.querySelector(`[data-act=${act}]`).hidden = people;
  }
  // Hint keeps its place while the game goes on (it came and went with the turn, so the
  // toolbar changed from one turn to the next): disabled, it says why. A finished game has
  // no use for it.
  button('hint', view.can_hint, view.your_turn ? 'Hint (H)' : 'Hint (H): on your turn');
  tools.querySelector('[data-act=hint]').hidden = !!view.outcome;
  button('rules', true, 'Rules (?)');
  // The keyboard's help says only the keys that work at this table.
  const keys = ['U undo', 'Y redo'].filter(() => !people);
  page.querySelector('.keys').textContent = tap('Click or drag a card or tile, then its target')
    + ' · keyboard: Tab / arrows to move, Enter to choose, Esc to cancel, '
    + [...keys, ...(view.outcome ? [] : ['H hint']), '? rules'].join(', ');

  let status;
  if (view.outcome) status = 'The game is over.';
  else if (view.your_turn) status = tap(module.prompt?.(view.observation, view) ?? 'Your move.');
  else if (waitsToJoin(view, view.to_move)) {
    // Not "Waiting for player 2…" as if they were thinking: no one sits there yet. The
    // creator, who holds the seat's invitation, is told where it is.
    const sending = savedSeat(view.room)?.invites?.[view.to_move]
      ? ': send them their link (Invite the other players, under the table)' : '…';
    status = `Waiting for ${seatName(view, view.to_move)} to join${sending}`;
  } else status = `Waiting for ${seatName(view, view.to_move)}…`;
  const played = others.map(({ seat, move }) => {
    // A table module may say another's move with its own verb ("drew a set-aside tile").
    const what = move === null
      ? 'played a move you cannot see'
      : module.describe?.(move, view.observation, view) ?? `played ${move}`;
    return `${capitalise(seatName(view, seat))} ${what}. `;
  });
  status = `${played.join('')}${status}`;
  // (kept for showConnection, which says the connection is awaited instead while it is lost)
  const line = page.querySelector('.status');
  line.dataset.line = status;
  line.dataset.over = String(!!view.outcome);
  line.textContent = status;
}

function showActions(node, moves, module, view, play) {
  node.innerHTML = '';
  for (const move of moves) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'move';
    button.dataset.move = move;
    button.textContent = module.label?.(move, view.observation, view) ?? move;
    button.addEventListener('click', () => {
      if (module.confirm?.(move) && !window.confirm(`${button.textContent}?`)) return;
      play(move);
    });
    node.appendChild(button);
  }
}

/** The buttons under the table in the window with it: the board leaves them room in the
 * window's height (style.css, --actions-h; measured again when they change or wrap), and
 * where they are the only moves (a Scalafrutta split, a Gaps redeal) they are scrolled into
 * view if still out of it (a status line on two lines), once for each position (``only``:
 * its room and ply), so that the same position sent again (a reconnection, a player
 * joining) does not pull the page back while it is read. Without that room the split lay
 * under the fold at 1280 x 800, below the board. */
function roomForActions(page, only) {
  const actions = page.querySelector('.actions');
  measureActions(page); // (before the scroll: the observer's call comes after the layout)
  if (only !== null && actions.dataset.scrolledFor !== only) {
    actions.dataset.scrolledFor = only;
    actions.scrollIntoView({ block: 'nearest' });
  }
}

/** The room the move buttons take under the board (see :func:`roomForActions`). */
function measureActions(page) {
  const actions = page.querySelector('.actions');
  const shown = [...actions.children].some((button) => !button.hidden);
  const margins = 20; // (the row's own, above and below)
  const chooser = page.querySelector('.chooser');
  const asking = chooser.hidden ? 0 : chooser.offsetHeight + 10; // (and its margin above)
  const room = (shown ? actions.offsetHeight + margins : 0) + asking;
  page.style.setProperty('--actions-h', `${room}px`);
}

// The rules' refusal ("7S: the spades foundation needs 2S", shared with the terminal, in
// notation) in the page's words: the move tried as its label says it, the rest as the game
// module words it (7♠ to its foundation: the spades foundation needs 2♠). Only names change.
function refusal(message, sent, module, view) {
  const words = module.words ?? ((text) => text);
  if (!sent || !message.startsWith(`${sent}: `)) return words(message);
  const tried = module.label?.(sent, view?.observation ?? {}, view) ?? sent;
  return `${capitalise(tried)}: ${words(message.slice(sent.length + 2))}`;
}

function showHint(page, interaction, event, module, view) {
  if (!event.move) {
    toast(event.note || 'No move to suggest.');
    return;
  }
  const label = module.label?.(event.move, view.observation, view) ?? event.move;
  const onBoard = interaction.hint(event.move);
  for (const button of page.querySelectorAll('.actions .move')) {
    button.classList.toggle('hint', button.dataset.move === event.move);
  }
  // The verdict, and what the solver adds (how far the line goes, or why it has none).
  const verdict = event.winnable === true ? 'the deal can still be won'
    : event.winnable === false ? 'the deal cannot be won from here' : '';
  const said = [verdict, event.note].filter((part) => part).join('; ');
  const odds = said ? ` (${said})` : '';
  toast(`Hint: ${label}${odds}${onBoard ? '' : ' (see the buttons below)'}`);
}

function showEnd(panel, under, view, connection, module, undo) {
  if (!view.outcome) {
    panel.hidden = true;
    panel.dataset.shownFor = '';
    return;
  }
  // Under the table once the panel is put away (Look at the table): the way back to it, and
  // so to a new deal, without going home.
  const back = document.createElement('button');
  back.type = 'button';
  back.className = 'show-result';
  back.textContent = 'Show the result';
  back.addEventListener('click', () => {
    panel.hidden = false;
    back.hidden = true;
    showCard(panel);
  });
  under.appendChild(back);
  const key = `${view.room}:${view.ply}`;
  back.hidden = !panel.hidden || panel.dataset.shownFor !== key;
  if (panel.dataset.shownFor === key) return;
  panel.dataset.shownFor = key;
  const outcome = view.outcome;
  // How the game ended, in the game's words where its table module has some (Domino: who
  // won, and why; the solitaires: their figures in a sentence), else (the generic table, or
  // a module with no words for this outcome) with the outcome's figures listed.
  const ending = module.ending?.(outcome.termination, outcome, view)
    ?? endingLine(outcome.termination.replaceAll('_', ' '), outcome);
  const won = outcome.winners.includes(view.seat);
  const solitaire = view.seats.length === 1;
  // Over as dealt (about one Tappeto deal in ten has no move): said so, where "Not this
  // time" read as if a move had lost it; the same deal again would be over again.
  const asDealt = view.ply === 0;
  const told = asDealt && !won ? `This deal has no move. ${ending}` : ending;
  const heading = won ? (solitaire ? 'You won!' : outcome.winners.length > 1 ? 'You share the win!' : 'You won!')
    : solitaire ? 'Not this time' : winnersWon(view, outcome.winners);
  // The figures a score comes from, and a line that explains it, where the game's table
  // module has them (Domino: the tiles left in hand, of which the score is minus).
  const scores = module.scores?.(outcome) ?? { columns: [], note: '' };
  const rows = outcome.scores
    .map((score, seat) => `<tr class="${outcome.winners.includes(seat) ? 'winner' : ''}">
      <td>${esc(capitalise(seatName(view, seat)))}</td>
      ${scores.columns.map((c) => `<td>${esc(c.values[seat])}</td>`).join('')}<td>${score}</td></tr>`)
    .join('');
  const heads = scores.columns.map((c) => `<th>${esc(c.head)}</th>`).join('');
  const note = scores.note ? `<p class="score-note">${esc(scores.note)}</p>` : '';
  panel.innerHTML = `<div class="end-card" role="dialog" aria-label="end of the game">
      <h2>${heading}</h2>
      <p class="termination">${esc(told)}</p>
      <table class="scores"><thead><tr><th>${solitaire ? '' : 'Player'}</th>${heads}<th>Score</th></tr></thead>
      <tbody>${rows}</tbody></table>${note}
      <div class="end-buttons">
        <button type="button" class="primary" data-end="new">New deal</button>
        <button type="button" data-end="restart" ${view.can_again && !asDealt ? '' : 'hidden'}>Play this deal again</button>
        <button type="button" data-end="undo" ${view.can_undo ? '' : 'hidden'}>Undo last move</button>
        <button type="button" data-end="look">Look at the table</button>
      </div></div>`;
  panel.hidden = false;
  const actions = {
    new: () => connection.send('new', {
      game: view.game,
      variant: view.variant,
      params: view.params,
      seats: view.seats.map((s) => s.name),
      seed: null,
      player: playerName(),
    }),
    // The same deal again as a new game, so that each ending counts in the statistics (also
    // where the page is not told the deal number: the server knows it).
    restart: () => connection.send('again'),
    undo,
    look: () => {
      panel.hidden = true;
      // The button of the latest frame (a state at the same move, after a reconnection,
      // draws a new one under the table).
      under.querySelector('.show-result').hidden = false;
    },
  };
  for (const button of panel.querySelectorAll('[data-end]')) {
    button.addEventListener('click', () => actions[button.dataset.end]());
  }
  showCard(panel);
}

/** The end card in view, its first button focused: centred on a table taller than the
 * window (Domino's rows, drawn life size), it could lie above or below the part scrolled to,
 * and the player read only "The game is over." */
function showCard(panel) {
  panel.querySelector('.end-card').scrollIntoView({ block: 'nearest' });
  panel.querySelector('.primary').focus({ preventScroll: true });
}

/** The end panel's heading when this seat did not win: who did ("Greedy bot (seat 2)
 * won", "Player 2 and player 3 share the win"), where it said only "Game over". */
function winnersWon(view, winners) {
  if (winners.length === 0) return 'Game over';
  const names = winners.map((seat) => seatName(view, seat));
  if (names.length === 1) return `${capitalise(names[0])} won`;
  return `${capitalise(names.slice(0, -1).join(', '))} and ${names.at(-1)} share the win`;
}

/** Whether another person sits at this table (no undo, restart nor redo there). */
const withPeople = (view) => view.seats.some((s, seat) => seat !== view.seat && s.kind === 'human');

/** How the game ended and its figures, on one line, for a game whose table module has no
 * words for it (the generic table): "stuck · cards on foundations 30 · reserve left 5", as
 * Acme's end panel read before it had a sentence of its own (a solitaire won
 * said "won" again under "You won!", and its figure "won true"). */
function endingLine(ending, outcome) {
  const said = ending === 'won' ? '' : ending;
  const figures = Object.fromEntries(
    Object.entries(outcome.details ?? {}).filter(([name]) => name !== 'won'),
  );
  return `${said}${details(figures)}`.replace(/^ · /, '');
}

/** The outcome's plain figures (numbers and words), as ' · name value' pieces. */
function details(figures) {
  return Object.entries(figures ?? {})
    .filter(([, value]) => ['number', 'string'].includes(typeof value))
    .map(([name, value]) => ` · ${name.replaceAll('_', ' ')} ${value}`)
    .join('');
}

const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function showInvites(section, view) {
  const mine = savedSeat(view.room);
  const tokens = mine?.tokens ?? {};
  const invites = mine?.invites ?? {};
  const seats = [...new Set([...Object.keys(invites), ...Object.keys(tokens)])]
    .map(Number)
    .filter((s) => s !== view.seat)
    .sort((a, b) => a - b);
  section.hidden = seats.length === 0;
  const waiting = seats.some((seat) => waitsToJoin(view, seat));
  // Everyone invited has joined: a short line, folded (it stayed open, the whole "Copy each
  // person's link…" paragraph with it, to the end of the game).
  const joined = invitations(view) && !waiting;
  section.querySelector('summary').textContent = joined
    ? 'Everyone has joined' : 'Invite the other players';
  section.querySelector('p').hidden = !waiting; // (it tells of invitations to send)
  // Open while a link waits to be sent: closed under the table, the creator read "Waiting
  // for player 2…" and saw no link. Opened once: a player who closes it keeps it closed.
  if (!section.dataset.opened && waiting) {
    section.open = true;
    section.dataset.opened = 'true';
  } else if (section.dataset.opened === 'true' && joined) {
    section.open = false; // (once: a player who opens it again keeps it open)
    section.dataset.opened = 'folded';
  }
  const list = section.querySelector('ul');
  list.innerHTML = '';
  for (const seat of seats) {
    const item = document.createElement('li');
    item.textContent = `${capitalise(seatName(view, seat))}: `; // (as the board names it)
    item.append(seatEntry(view, seat, tokens[seat], invites[seat]));
    list.appendChild(item);
  }
}

/** Whether a seat is a person's whose invitation no one has claimed yet. */
const waitsToJoin = (view, seat) => !!view.seats[seat]?.invited && !view.seats[seat]?.taken;

/** What the list offers for another person's seat: the way back to it (a seat this browser
 * holds: its creator opened that invitation; its token stays out of the address, which
 * people copy and pass on), that it was taken (its invitation claimed, as the server tells
 * the whole table: nothing to pass on), or its invitation, to pass on. At a table started
 * before invitations its creator holds every seat's token: the seat's link, to pass on. */
function seatEntry(view, seat, token, invite) {
  if (!token && view.seats[seat]?.taken) return 'joined (the invitation is used)';
  if (token && invitations(view)) {
    const anchor = document.createElement('a');
    anchor.href = `#/room/${view.room}/${seat}`;
    anchor.textContent = 'your seat in this browser';
    return anchor;
  }
  return linkToSend(token
    ? `${location.origin}/#/room/${view.room}/${seat}/${token}`
    : `${location.origin}/#/room/${view.room}/${seat}/invite/${invite}`);
}

/** A link to pass on, as text to copy with a button: as a link, a click (or a finger's tap
 * to copy it on a phone) opened it, which claimed the friend's seat for the creator, and
 * the friend's link no longer worked. */
function linkToSend(url) {
  const box = document.createElement('span');
  box.className = 'send-link';
  const text = document.createElement('input');
  text.type = 'text';
  text.readOnly = true;
  text.value = url;
  text.size = url.length; // (the whole link where there is room; a phone's screen cuts it)
  text.setAttribute('aria-label', 'link to send');
  text.addEventListener('focus', () => text.select());
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.textContent = 'Copy link';
  copy.addEventListener('click', async () => {
    text.select();
    try {
      // (Only in a secure context: a server reached by its address on the network is not.)
      await navigator.clipboard.writeText(url);
    } catch {
      if (!document.execCommand('copy')) {
        toast('Select the link and copy it.');
        return;
      }
    }
    copy.textContent = 'Copied';
    setTimeout(() => { copy.textContent = 'Copy link'; }, 2000);
  });
  box.append(text, copy);
  return box;
}

/** Whether the table was started with invitations: a table started before them passes
 * its seats' tokens in links, by design. */
const invitations = (view) => view.seats.some((s) => s.invited);

/** Whether this seat's token was handed to this browser in a link, at a table of
 * invitations: whoever gave it can open the seat (and read its hand) unseen. The creator's
 * own seat counts too: it has no invitation, and a creator who claimed the friend's seat
 * could send the friend theirs. */
function wasHanded(view) {
  return invitations(view) && !!savedSeat(view.room)?.handed?.[view.seat];
}

/** The seat to open and how: the one this browser last sat at (no seat in the link); one
 * it holds, by the token kept here (#/room/<id>/<seat>, or an invitation it claimed
 * already: claimed once, the link stays in the history); an invitation to claim, with the
 * token this browser chose for it, kept before the claim is sent (see claimToken); or the
 * address's token, handed over unless this browser holds that very token already. */
function seatToOpen(room, link) {
  const saved = savedSeat(room);
  if (!link) return saved && { seat: saved.seat, token: saved.token };
  const held = saved?.tokens?.[link.seat];
  if (link.token !== undefined) return { ...link, fromAddress: link.token !== held };
  if (held) return { seat: link.seat, token: held };
  if (link.invite === undefined) return null;
  return { ...link, token: claimToken(room, link.seat, link.invite) };
}
