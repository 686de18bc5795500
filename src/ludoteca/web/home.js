// The home view: the seven games with their variants, a deal by number or at random,
// seats for the multiplayer games, games to resume, and the player's statistics.

import { drawCard, drawTile, svg } from './art.js';
import {
  abandon, forgetSeats, heldRooms, playerName, saveSeats, savedSeat, setPlayerName,
  wasForgotten,
} from './net.js';
import {
  capitalise, showRules, toast, variantWords,
} from './ui.js';

const SHOWCASE = {
  gaps: ['card', ['2S', '3S', '4S']],
  tappeto: ['card', ['AH', 'KC']],
  acme: ['card', ['QD', 'JD']],
  muro: ['tile', ['3B', '4F']],
  mosaico: ['tile', ['2U', '2M']],
  scalafrutta: ['tile', ['4C', '5C']],
  domino: ['tile', ['6P', '6F']],
};

function html(strings, ...values) {
  const escape = (v) => String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return strings.reduce((out, s, i) => out + s + (i < values.length ? escape(values[i]) : ''), '');
}

export async function showHome(main, connection) {
  document.getElementById('where').textContent = '';
  document.title = 'ludoteca';
  main.innerHTML = '<p class="loading">Loading the games…</p>';
  const player = playerName();
  // The games in progress: this name's, and every table this browser holds a seat at, under
  // whatever name it was started (a rename hid them all, though this browser held them).
  const held = heldRooms().slice(-200).map((room) => `&room=${encodeURIComponent(room)}`);
  const [games, stats, rooms] = await Promise.all([
    fetch('/api/games').then((r) => r.json()),
    fetch(`/api/stats?player=${encodeURIComponent(player)}`).then((r) => r.json()),
    fetch(`/api/rooms?player=${encodeURIComponent(player)}${held.join('')}`).then((r) => r.json()),
  ]);
  main.innerHTML = html`
    <section class="home">
      <div class="intro">
        <h1>Seven games</h1>
        <label class="player">Player <input id="player" value="${player}" maxlength="40"
          autocomplete="nickname"></label>
      </div>
      <section class="resume" hidden aria-labelledby="resume-title">
        <h2 id="resume-title">Games in progress</h2><ul></ul></section>
      <section class="catalog" aria-labelledby="catalog-title">
        <h2 id="catalog-title">Start a new game</h2><div class="games"></div></section>
      <section class="stats"><h2>Statistics for ${player}</h2><div class="stats-body"></div></section>
    </section>`;
  main.querySelector('#player').addEventListener('change', (e) => {
    setPlayerName(e.target.value);
    showHome(main, connection);
  });
  const grid = main.querySelector('.games');
  for (const game of games.games) grid.appendChild(gameCard(game, stats.stats, connection));
  showResume(main.querySelector('.resume'), rooms.rooms, games.games, player);
  showStats(main.querySelector('.stats-body'), stats.stats, games.games);

  const stop = connection.listen((event) => {
    if (event.type === 'joined') {
      saveSeats(event.room, event.seat, event.tokens, event.invites);
      location.hash = `#/room/${event.room}`;
    } else if (event.type === 'error') {
      toast(event.message, 'error');
    }
  });
  return stop;
}

function gameCard(game, stats, connection) {
  const card = document.createElement('article');
  card.className = 'game';
  card.dataset.game = game.name;
  // Seven cards of like controls: each control's name says its game ("Play Gaps"), where a
  // screen reader's list of buttons read "Play" seven times. The visible word comes first.
  card.setAttribute('aria-labelledby', `title-${game.name}`);
  card.innerHTML = html`
    <div class="game-head">
      <svg class="showcase" viewBox="0 0 150 84" aria-hidden="true"></svg>
      <div><h3 id="title-${game.name}">${game.title}</h3>
      <p class="players">${game.solitaire ? 'solitaire' : `${game.min_players}–${game.max_players} players`}</p></div>
      <button type="button" class="link rules-button"
        aria-label="Rules of ${game.title}">Rules</button>
    </div>
    <p class="desc">${game.description}</p>
    <label class="row">Variant <select name="variant"
      aria-label="Variant of ${game.title}"></select></label>
    <p class="vdesc"></p>
    <details class="options"><summary aria-label="Options of ${game.title}">Options</summary>
      <div class="params"></div></details>
    <fieldset class="seats" hidden aria-label="Players of ${game.title}"><legend>Players</legend>
      <div class="seat-list"></div>
      <div class="seat-buttons"><button type="button" class="add-seat"
        aria-label="Add a player to ${game.title}">+ player</button>
      <button type="button" class="drop-seat"
        aria-label="Remove a player from ${game.title}">− player</button></div></fieldset>
    <form class="deal">
      <label>Deal <input name="seed" type="number" min="0" step="1" placeholder="random"
        inputmode="numeric" aria-label="Deal of ${game.title}"></label>
      <button type="submit" class="primary play" aria-label="Play ${game.title}">Play</button>
    </form>
    <p class="mystats"></p>`;
  drawShowcase(card.querySelector('.showcase'), game.name);
  const select = card.querySelector('select[name=variant]');
  for (const v of game.variants) {
    const option = document.createElement('option');
    option.value = v.name; // (the notation: what the request and the statistics carry)
    option.textContent = v.title;
    select.appendChild(option);
  }
  const refresh = () => {
    const variant = game.variants.find((v) => v.name === select.value);
    card.querySelector('.vdesc').textContent = variant.description;
    showParams(card.querySelector('.params'), variant.params, game);
    card.querySelector('.mystats').textContent = cardRecord(stats, game, variant.name);
  };
  select.addEventListener('change', refresh);
  refresh();
  if (!game.solitaire) seatEditor(card.querySelector('.seats'), game);
  card.querySelector('.rules-button').addEventListener('click', () => showRules(game.name));
  card.querySelector('.deal').addEventListener('submit', (e) => {
    e.preventDefault();
    const seedText = card.querySelector('input[name=seed]').value.trim();
    if (seedText !== '' && !/^\d+$/.test(seedText)) {
      // '1e3' passed the number field and opened deal 1.
      toast(`A deal number is a whole number, 0 or more: not ${seedText}.`, 'error');
      return;
    }
    // Past 2**53 a JavaScript number is rounded (another deal): the digits go as text.
    const seedValue = Number(seedText);
    const request = {
      game: game.name,
      variant: select.value,
      params: changedParams(card),
      seed: seedText === '' ? null : Number.isSafeInteger(seedValue) ? seedValue : seedText,
      player: playerName(),
    };
    if (!game.solitaire) {
      request.seats = [...card.querySelectorAll('.seat-list select, .seat-list input')].map(
        (n) => n.value,
      );
    }
    connection.send('new', request);
  });
  return card;
}

function drawShowcase(node, name) {
  const [kind, codes] = SHOWCASE[name] ?? ['tile', ['1M', '2M']];
  codes.forEach((code, i) => {
    const g = svg('g', { transform: `translate(${8 + i * 40} ${kind === 'card' ? 2 : 12}) rotate(${(i - 1) * 6} 28 40)` }, node);
    if (kind === 'card') drawCard(g, code);
    else drawTile(g, code);
  });
}

// Each parameter as a player reads it: a label and a line that says what it does, from the
// game's spec (`param_help` in /api/games: the same texts as `ludoteca games GAME`). A
// parameter it does not describe shows its name, without a line.
function showParams(node, params, game) {
  node.innerHTML = '';
  for (const [name, value] of Object.entries(params)) {
    const told = game.param_help?.[name];
    const title = told?.label ?? capitalise(name.replaceAll('_', ' '));
    const help = told?.help ?? '';
    const id = `param-${game.name}-${name}`;
    const row = document.createElement('div');
    row.className = 'param';
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = title;
    const input = document.createElement('input');
    input.id = id;
    input.name = `param-${name}`;
    input.dataset.param = name;
    // Seven cards of like fields: the name says the game ("Redeals of Gaps", not "redeals").
    input.setAttribute('aria-label', `${title} of ${game.title}`);
    const limits = game.param_limits?.[name];
    if (typeof value === 'boolean') {
      input.type = 'checkbox';
      input.checked = value;
    } else if (limits) {
      // A number within the limits the engine checks (/api/games: `param_limits`), so that
      // its arrows stay within them; one typed past them still goes, and the server says
      // why not in its one line. (The step came from the value: Gaps's penalty, 0, took
      // whole numbers only.) Empty is no limit where that is the default (Acme's redeals).
      input.type = 'number';
      input.value = value ?? '';
      input.step = String(limits.step);
      if (limits.min !== undefined) input.min = String(limits.min);
      if (limits.max !== undefined) input.max = String(limits.max);
    } else {
      input.value = value ?? '';
    }
    if (value === null) input.placeholder = 'no limit';
    input.dataset.initial = input.type === 'checkbox' ? String(input.checked) : input.value;
    if (input.type === 'checkbox') {
      // The whole row, the option's name and its box, is one label, 44 px tall under a
      // finger (style.css): the box was 24 px, its name beside it 19 px.
      label.className = 'param-check';
      const name = document.createElement('span');
      name.textContent = title;
      label.replaceChildren(name, input);
      row.append(label);
    } else {
      row.append(label, input);
    }
    if (help) {
      const note = document.createElement('p');
      note.className = 'param-help';
      note.id = `${id}-help`;
      note.textContent = help;
      input.setAttribute('aria-describedby', note.id);
      row.appendChild(note);
    }
    node.appendChild(row);
  }
}

function changedParams(card) {
  const params = {};
  for (const input of card.querySelectorAll('[data-param]')) {
    const now = input.type === 'checkbox' ? String(input.checked) : input.value;
    if (now !== input.dataset.initial) params[input.dataset.param] = now;
  }
  return params;
}

function seatEditor(fieldset, game) {
  fieldset.hidden = false;
  const list = fieldset.querySelector('.seat-list');
  const bots = game.bots.map((b) => b.name);
  const preferred = bots.includes('greedy') ? 'greedy' : bots[0];
  const addSeat = () => {
    const row = document.createElement('label');
    row.className = 'row seat';
    const seat = list.children.length;
    row.append(`Seat ${seat + 1}`);
    if (seat === 0) {
      const you = document.createElement('input');
      you.type = 'hidden';
      you.value = 'human';
      row.append(you, ' you');
    } else {
      const select = document.createElement('select');
      for (const name of ['human', ...bots]) {
        const option = document.createElement('option');
        option.value = name;
        option.textContent = name === 'human' ? 'a person' : `bot: ${name}`;
        option.title = game.bots.find((b) => b.name === name)?.description ?? '';
        select.appendChild(option);
      }
      select.value = preferred;
      select.setAttribute('aria-label', `Seat ${seat + 1} of ${game.title}`);
      row.appendChild(select);
    }
    list.appendChild(row);
  };
  const fit = () => {
    fieldset.querySelector('.add-seat').disabled = list.children.length >= game.max_players;
    fieldset.querySelector('.drop-seat').disabled = list.children.length <= game.min_players;
  };
  for (let i = 0; i < game.min_players; i += 1) addSeat();
  fieldset.querySelector('.add-seat').addEventListener('click', () => { addSeat(); fit(); });
  fieldset.querySelector('.drop-seat').addEventListener('click', () => {
    list.lastElementChild.remove();
    fit();
  });
  fit();
}

/** The card's line for a variant: its record as declared, else (played only with changed
 * options, stored as "gaps[ranks=4,suits=2]", which an exact match missed: "Not played
 * yet.") the first such record, named. */
function cardRecord(stats, game, variant) {
  const played = stats.filter((s) => s.game === game.name && baseVariant(s.variant) === variant);
  const exact = played.find((s) => s.variant === variant);
  if (exact) return statLine(exact, game);
  if (played.length === 0) return 'Not played yet.';
  const more = played.length > 1 ? ` (and ${played.length - 1} more, below)` : '';
  const named = variantWords(played[0].variant, variantTitles(game));
  return `${capitalise(named)}: ${statLine(played[0], game)}${more}`;
}

/** A game's variants' titles by name (the spec's, from /api/games), for variantWords. */
const variantTitles = (game) => Object.fromEntries((game?.variants ?? []).map((v) => [v.name, v.title]));

/** A stored variant key's variant: "gaps" for "gaps[ranks=4]". */
const baseVariant = (key) => key.split('[')[0];

/** A best score as it reads: the number, or where the score is minus what is left
 * (Domino: the catalog's score_left) how few were left, "1 tile left" (it read -1). */
function bestText(score, game) {
  const left = game?.score_left;
  if (!left) return `${score}`;
  const count = -score;
  return `${count} ${count === 1 ? left[0] : left[1]} left`;
}

function statLine(s, game) {
  const streak = s.streak > 0 ? `${s.streak} won in a row` : `${-s.streak} lost in a row`;
  // Addiction's completion statistics name the redeals used too (the table below did).
  const redeals = s.redeals_used ? ` · ${s.redeals_used} redeal${s.redeals_used === 1 ? '' : 's'} used` : '';
  const best = game?.score_left ? `best ${bestText(s.best_score, game)}` : `best score ${s.best_score}`;
  return `Played ${s.played} · won ${s.won} · ${best} · ${streak}${redeals}`;
}

function showResume(section, rooms, games, player) {
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const list = section.querySelector('ul');
  // Games this browser holds no seat at can be neither resumed nor forgotten here: one line
  // says how many there are, instead of a growing list of entries to do nothing with.
  // (Not those forgotten here: they were started in this browser.)
  const elsewhere = rooms.filter((room) => !savedSeat(room.room) && !wasForgotten(room.room)).length;
  for (const room of rooms) {
    if (!savedSeat(room.room)) continue;
    const item = document.createElement('li');
    const when = new Date(room.updated * 1000).toLocaleString();
    const deal = room.seed === null ? '' : ` · deal ${room.seed}`;
    // The variant as the table names it: changed parameters too ("montana (redeals 1)").
    const changed = Object.entries(room.params ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
    const variant = variantWords(
      changed ? `${room.variant}[${changed}]` : room.variant, variantTitles(byName[room.game]),
    );
    const moves = `${room.plies} move${room.plies === 1 ? '' : 's'}`;
    // A seat counts for the name it was taken under: one taken before a rename says so.
    const counted = room.players?.[savedSeat(room.room).seat];
    const counts = counted && counted !== player ? ` · counts for ${counted}` : '';
    item.innerHTML = html`<span><strong>${byName[room.game]?.title ?? room.game}</strong> · ${variant}${deal}${company(room.seats)}
      · ${moves} · ${when}${counts}</span>`;
    const link = document.createElement('a');
    link.href = `#/room/${room.room}`;
    link.className = 'button';
    link.textContent = 'Resume';
    const drop = document.createElement('button');
    drop.type = 'button';
    drop.className = 'link forget';
    drop.textContent = 'Forget';
    drop.addEventListener('click', () => {
      // One click dropped a game in progress, where Restart asks first.
      if (!window.confirm(forgetQuestion(room))) return;
      forget(room).then(() => {
        item.remove();
        const note = section.querySelector('.elsewhere');
        if (note) elsewhereNote(note, list, elsewhere);
        section.hidden = list.children.length === 0 && !elsewhere;
      }, (err) => toast(err.message, 'error'));
    });
    const buttons = document.createElement('span');
    buttons.append(drop, link);
    item.appendChild(buttons);
    list.appendChild(item);
  }
  if (elsewhere) {
    const note = document.createElement('p');
    note.className = 'elsewhere';
    section.appendChild(note);
    elsewhereNote(note, list, elsewhere);
  }
  section.hidden = list.children.length === 0 && !elsewhere;
}

/** "3 more games in progress under this name in another browser": "more" only beside games
 * listed here (it stayed once Forget had emptied the list). They count the tables this name
 * sits at as an invited guest too, which it did not start ("started in another browser"). */
function elsewhereNote(note, list, elsewhere) {
  const more = list.children.length ? ' more' : '';
  note.textContent = `${elsewhere}${more} ${elsewhere === 1 ? 'game' : 'games'} in progress`
    + ' under this name in another browser (resume them there).';
}

/** Who else sits at a table, as the list of games in progress says it (" · with 1 other
 * person and 2 bots"); nothing for a solitaire. Without it, a game with a friend waiting
 * looked like any other. */
function company(seats) {
  const people = seats.filter((kind) => kind === 'human').length - 1;
  const bots = seats.length - 1 - people;
  const others = [];
  if (people > 0) others.push(`${people} other ${people === 1 ? 'person' : 'people'}`);
  if (bots > 0) others.push(`${bots} bot${bots === 1 ? '' : 's'}`);
  return others.length ? ` · with ${others.join(' and ')}` : '';
}

/** A table with another person is theirs too: forgetting it is this browser's business
 * only (the server refuses to end it for them). A game against bots ends for good. */
const withPeople = (room) => room.seats.filter((kind) => kind === 'human').length > 1;

function forgetQuestion(room) {
  return withPeople(room)
    ? 'Forget this game in this browser? The others play on; your seat here is dropped.'
    : 'Forget this game? It cannot be resumed afterwards.';
}

function forget(room) {
  if (!withPeople(room)) return abandon(room.room);
  forgetSeats(room.room);
  return Promise.resolve();
}

function showStats(node, stats, games) {
  if (stats.length === 0) {
    node.innerHTML = '<p>No finished games yet.</p>';
    return;
  }
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  // Redeals used (Gaps, Addiction) get a column once any game has used one, filled only in
  // the rows of games that have redeals ("0" in a Domino row read as a figure of Domino's).
  const redealing = new Set(games.filter(hasRedeals).map((g) => g.name));
  const redeals = stats.some((s) => s.redeals_used > 0);
  // On a phone each game and variant take a line of their own above its figures, their
  // columns hidden (style.css): under the game's name in its narrow column, "gaps (ranks 5)"
  // took three lines. One tbody an entry, headed by that line (a row group's header).
  const figures = redeals ? 6 : 5;
  // By game, in the order of the game cards, and by variant as each card lists them (the
  // default options first): in order of first play, Gaps sat under Domino.
  const gameOrder = (s) => {
    const at = games.findIndex((g) => g.name === s.game);
    return at < 0 ? games.length : at;
  };
  const variantOrder = (s) => {
    const names = games.find((g) => g.name === s.game)?.variants.map((v) => v.name) ?? [];
    const at = names.indexOf(baseVariant(s.variant));
    return at < 0 ? names.length : at;
  };
  const sorted = [...stats].sort((a, b) => gameOrder(a) - gameOrder(b)
    || variantOrder(a) - variantOrder(b)
    || (a.variant.includes('[') - b.variant.includes('['))
    || a.variant.localeCompare(b.variant));
  const rows = sorted.map((s) => {
    const title = byName[s.game]?.title ?? s.game;
    // (the stored key stays gaps[ranks=5])
    const variant = variantWords(s.variant, variantTitles(byName[s.game]));
    const used = redealing.has(s.game) ? s.redeals_used : '';
    return html`<tbody><tr class="game-line"><th colspan="${figures}" scope="rowgroup">${title}
    <span class="variant-under">${variant}</span></th></tr>
    <tr><td class="title-cell">${title}</td><td class="variant">${variant}</td>
    <td>${s.played}</td><td>${s.won} (${Math.round((100 * s.won) / s.played)}%)</td>
    <td>${bestText(s.best_score, byName[s.game])}</td><td>${s.streak > 0 ? `+${s.streak}` : s.streak}</td>
    <td>${s.best_streak}</td>` + (redeals ? html`<td>${used}</td>` : '') + '</tr></tbody>';
  });
  node.innerHTML = `<table class="stat-table"><thead><tr><th class="title-cell">Game</th>
    <th class="variant">Variant</th><th>Played</th><th>Won</th><th>Best score</th>
    <th>Streak</th><th>Best streak</th>${redeals ? '<th>Redeals used</th>' : ''}</tr></thead>
    ${rows.join('')}</table>`;
}

/** Whether a game has redeals to count (Gaps: 2 by default). Acme's `redeals`, how often
 * its waste turns over, has no limit by default, and its results count none. */
const hasRedeals = (game) => game.variants.some((v) => v.params.redeals > 0);
