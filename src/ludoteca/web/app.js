// The page: a home view (#/) and a table view (#/room/<id>) over one connection.

import { installDefs } from './art.js';
import { showHome } from './home.js';
import { Connection, playerName } from './net.js';
import { showTable } from './table.js';

const connection = new Connection();
const main = document.getElementById('main');
let leaveView = () => {};

async function route() {
  leaveView();
  leaveView = () => {};
  // #/room/<id>; a seat this browser holds: #/room/<id>/<seat>; a seat's link:
  // #/room/<id>/<seat>/<token>, #/room/<id>/<seat>/invite/<code>
  const room = location.hash.match(/^#\/room\/([\w-]+)(?:\/(\d+)(?:\/(invite\/)?([\w-]+))?)?$/);
  if (room) leaveView = await showTable(main, connection, room[1], seatLink(room));
  else leaveView = await showHome(main, connection);
}

/** The seat a room's link names: alone (its token is kept in this browser), with its
 * token, or with its invitation's code. */
function seatLink([, , seat, invite, secret]) {
  if (seat === undefined) return null;
  if (secret === undefined) return { seat: Number(seat) };
  return invite ? { seat: Number(seat), invite: secret } : { seat: Number(seat), token: secret };
}

// This browser's name, settled before anything is kept (a guest's first page may be an
// invitation, whose seat kept first would read as a browser that played before names).
playerName();
installDefs();
window.addEventListener('hashchange', route);
route();
