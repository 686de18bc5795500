// The page's side of the WebSocket protocol (docs/web.md): one connection for the whole
// page, reopened when it drops; each view listens while it is on screen.

export const PROTOCOL = 1;
const SEATS_KEY = 'ludoteca.seats';
const FORGOTTEN_KEY = 'ludoteca.forgotten';
const CLAIMS_KEY = 'ludoteca.claims';

export class Connection {
  constructor() {
    this.listeners = new Set();
    this.queue = [];
    this.onReopen = null;
    this.everOpened = false;
    this.online = false;
    this.open();
  }

  open() {
    this.socket = new WebSocket(socketUrl());
    this.socket.addEventListener('open', () => {
      const again = this.everOpened;
      this.everOpened = true;
      this.status('online');
      if (again && this.onReopen) this.onReopen();
      for (const text of this.queue.splice(0)) this.socket.send(text);
    });
    this.socket.addEventListener('message', (e) => {
      const event = JSON.parse(e.data);
      for (const listener of [...this.listeners]) listener(event);
    });
    this.socket.addEventListener('close', () => {
      this.status('offline');
      setTimeout(() => this.open(), 1000);
    });
  }

  status(text) {
    // (the header's mark keeps the state for styles and scripts; the words are the banner's,
    // where a second "reconnecting…" up in the title bar only repeated them)
    const node = document.getElementById('conn');
    if (node) node.dataset.state = text;
    this.online = text === 'online';
    document.body.dataset.connection = text;
    connectionBanner(this.online);
    // (to the views as an event of their own: the table takes no moves while it is lost)
    for (const listener of [...this.listeners]) listener({ type: 'connection', online: this.online });
  }

  send(type, fields = {}) {
    const text = JSON.stringify({ protocol: PROTOCOL, type, ...fields });
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
    // Before the first connection a request waits for it. Once it is lost none waits: a move
    // queued then was played when the connection came back, maybe long after, unseen; the
    // banner says that nothing can be played meanwhile, and each view rejoins on its own.
    else if (!this.everOpened) this.queue.push(text);
  }

  /** Listen to every event; returns the function that stops listening. */
  listen(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

/** The banner under the title bar: the connection lost, in words that say what it means
 * (the header's small "reconnecting…" was easy to miss, and moves made meanwhile waited to
 * be played unseen), then for a few seconds that it is back. */
function connectionBanner(online) {
  const banner = document.getElementById('offline');
  // (each failed try to reconnect says offline again: the alert is read out once)
  if (!banner || (!online && banner.dataset.state === 'lost')) return;
  clearTimeout(connectionBanner.timer);
  if (!online) {
    banner.dataset.state = 'lost';
    banner.textContent = 'The connection to the server is lost: nothing can be played until'
      + ' it is back. Reconnecting…';
    banner.hidden = false;
  } else if (banner.dataset.state === 'lost') {
    banner.dataset.state = 'back';
    banner.textContent = 'Connected again: you can play.';
    banner.hidden = false;
    connectionBanner.timer = setTimeout(() => { banner.hidden = true; }, 4000);
  }
}

export function socketUrl() {
  return `${location.protocol === 'https:' ? 'wss://' : 'ws://'}${location.host}/ws`;
}

/** Drop a game from the games in progress, on a connection of its own (the page's stays
 * where it is). Requests are answered in order, so the pong means the abandon is done. */
export function abandon(room) {
  const seat = savedSeat(room);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(socketUrl());
    const send = (type, fields = {}) => {
      socket.send(JSON.stringify({ protocol: PROTOCOL, type, ...fields }));
    };
    socket.addEventListener('open', () => {
      send('join', { room, seat: seat.seat, token: seat.token });
      send('abandon');
      send('ping');
    });
    socket.addEventListener('message', (e) => {
      const event = JSON.parse(e.data);
      if (event.type === 'error') reject(new Error(event.message));
      if (event.type === 'error' || event.type === 'pong') socket.close();
      if (event.type === 'pong') resolve();
    });
  });
}

/** The rooms this browser holds a seat at, the latest kept last. */
export function heldRooms() {
  return Object.keys(readSeats());
}

/** Seat tokens of the games started in this browser, by room. */
export function savedSeat(room) {
  return readSeats()[room] ?? null;
}

/** Keep the seat this browser plays at a table, the tokens it holds there (seat → token) and
 * the invitations to pass on (seat → code: the creator's, to the other people's seats).
 * Both are merged into those kept already: a link to another seat of the same table (the
 * creator trying their own invitation) must not drop the token of the seat that worked. An
 * invitation to a seat this browser holds is used: it goes. `handed`: the seat's token came
 * in a link's address, not from this browser's own claim or table (seat → true, kept:
 * whoever handed it over can still open the seat). */
export function saveSeats(room, seat, tokens, invites = {}, handed = false) {
  const all = readSeats();
  const known = { ...(all[room]?.tokens ?? {}), ...tokens };
  const open = Object.fromEntries(Object.entries({ ...(all[room]?.invites ?? {}), ...invites })
    .filter(([s]) => !known[s]));
  const given = { ...(all[room]?.handed ?? {}), ...(handed ? { [seat]: true } : {}) };
  all[room] = { seat, token: known[String(seat)], tokens: known, invites: open, handed: given };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

/** The token this browser claims a seat's invitation with (docs/web.md, `join`): made
 * once, and kept before the claim is sent. A claim whose answer was lost (the connection
 * dropped) is made again with it, which the server takes as the same claim; a new token
 * each time found the invitation used, by the claim the server had stored, and the seat
 * held by a token no one had. */
export function claimToken(room, seat, invite) {
  const all = readClaims();
  const kept = all[room]?.[seat];
  if (kept?.invite === invite && kept.token) return kept.token;
  const token = randomToken();
  all[room] = { ...(all[room] ?? {}), [seat]: { invite, token } };
  localStorage.setItem(CLAIMS_KEY, JSON.stringify(all));
  return token;
}

/** A claim answered: its token is kept with the seats (saveSeats) from now on. */
export function claimAnswered(room, seat) {
  const all = readClaims();
  if (!all[room]) return;
  delete all[room][seat];
  if (Object.keys(all[room]).length === 0) delete all[room];
  localStorage.setItem(CLAIMS_KEY, JSON.stringify(all));
}

/** 16 random bytes in base64url (22 characters): a secret no one else can guess. */
function randomToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Forget a table in this browser only (a table with other people goes on without it): its
 * seat and tokens go, and the room is remembered as forgotten, so that the home page does
 * not count it among the games started in another browser. */
export function forgetSeats(room) {
  const all = readSeats();
  delete all[room];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  const claims = readClaims();
  delete claims[room];
  localStorage.setItem(CLAIMS_KEY, JSON.stringify(claims));
  // The latest few hundred are plenty: the server lists at most 50 games in progress.
  const forgotten = [...readForgotten().filter((r) => r !== room), room].slice(-200);
  localStorage.setItem(FORGOTTEN_KEY, JSON.stringify(forgotten));
}

export function wasForgotten(room) {
  return readForgotten().includes(room);
}

function readForgotten() {
  try {
    const rooms = JSON.parse(localStorage.getItem(FORGOTTEN_KEY) ?? '[]');
    return Array.isArray(rooms) ? rooms : [];
  } catch {
    return [];
  }
}

function readSeats() {
  return readObject(SEATS_KEY);
}

function readClaims() {
  return readObject(CLAIMS_KEY);
}

function readObject(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? '{}') ?? {};
  } catch {
    return {};
  }
}

const PLAYER_KEY = 'ludoteca.player';

/** The name this browser plays under: it keys the statistics and the games in progress
 * (docs/web.md). Every browser was "player" unless renamed, so that a friend opening an
 * invitation in a fresh browser saw the host's statistics and games as theirs. A fresh
 * browser now gets a name of its own, "player" and a few random letters, kept here; one
 * that played before under the old default (it holds seats already) keeps "player", and its
 * games and statistics with it. */
export function playerName() {
  const kept = localStorage.getItem(PLAYER_KEY);
  if (kept) return kept;
  const name = Object.keys(readSeats()).length ? 'player' : freshName();
  localStorage.setItem(PLAYER_KEY, name);
  return name;
}

export function setPlayerName(name) {
  localStorage.setItem(PLAYER_KEY, name.trim() || playerName());
}

/** "player k3x9q": a default name no other browser is likely to have. */
function freshName() {
  const letters = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(5));
  return `player ${[...bytes].map((b) => letters[b % letters.length]).join('')}`;
}
