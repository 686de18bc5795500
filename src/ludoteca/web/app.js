// The page: a home view (#/) and a table view (#/room/<id>) over one connection.

import { installDefs } from './art.js';
import { showHome } from './home.js';
import { Connection } from './net.js';
import { showTable } from './table.js';

const connection = new Connection();
const main = document.getElementById('main');
let leaveView = () => {};

async function route() {
  leaveView();
  leaveView = () => {};
  const room = location.hash.match(/^#\/room\/([\w-]+)(?:\/(\d+)\/([\w-]+))?$/);
  if (room) leaveView = await showTable(main, connection, room[1], room[2], room[3]);
  else leaveView = await showHome(main, connection);
}

installDefs();
window.addEventListener('hashchange', route);
route();
