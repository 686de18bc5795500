// Small pieces of page furniture shared by the views: the rules dialog, the toast.

import { tapAll } from './touch.js';

export async function showRules(game) {
  const dialog = document.getElementById('rules');
  const body = document.getElementById('rules-body');
  const title = document.getElementById('rules-title');
  body.innerHTML = '<p>Loading…</p>';
  title.textContent = 'Rules';
  dialog.showModal();
  try {
    const answer = await fetch(`/api/rules/${encodeURIComponent(game)}`);
    if (!answer.ok) throw new Error(`${answer.status}`);
    const rules = await answer.json();
    title.textContent = `Rules: ${rules.title}`;
    body.innerHTML = rules.html; // rendered by markdown-it on the server with raw HTML off
    tapAll(body); // "Playing on the web page" says "click"; a finger taps
  } catch (err) {
    body.textContent = `The rules could not be loaded (${err.message}).`;
  }
}

/** A seat as the whole page names it: the table's status line and end panel, and the game
 * tables' boards and menus (Scalafrutta said "greedy bot (P2)", "Greedy bot (seat 2)" and
 * "player 2" for one seat). */
export function seatName(view, seat) {
  if (seat === view.seat) return 'you';
  const info = view.seats[seat];
  return info.kind === 'human' ? `player ${seat + 1}` : `${info.name} bot (seat ${seat + 1})`;
}

export const capitalise = (text) => text[0].toUpperCase() + text.slice(1);

/** A termination as the start of a sentence ("no_progress" -> "No progress"): a table
 * module's ending for one it has no words of its own for. */
export const endedAs = (termination) => capitalise(termination.replaceAll('_', ' '));

/** How long a toast stays: as long as it takes to read (about 15 characters a second,
 * after a second to look up), never under 4 s nor over 20 s. A 110-character refusal went
 * after 3.5 s, as "Thinking…" did, before it could be read. */
export const toastTime = (text) => Math.min(20000, Math.max(4000, 1000 + 66 * text.length));

export function toast(message, kind = 'info') {
  const node = document.getElementById('toast');
  node.textContent = message;
  node.dataset.kind = kind;
  placeToast(node);
  node.classList.add('shown');
  node.title = 'Click to close';
  // A click (or a tap) puts it away at once.
  node.onclick = () => clearToast();
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => hideToast(node), toastTime(message));
}

/** Put the toast away at once (the game ended: an old refusal or hint no longer applies,
 * and it covered the end panel; or a click on it). */
export function clearToast() {
  clearTimeout(toast.timer);
  hideToast(document.getElementById('toast'));
}

/** Put a refusal away (the next move, undo or redo was accepted: shown on, it read as if
 * the latest action had been refused). Other messages stay their time. */
export function clearRefusal() {
  const node = document.getElementById('toast');
  if (node.classList.contains('shown') && node.dataset.kind === 'error') clearToast();
}

function hideToast(node) {
  node.classList.remove('shown');
  document.querySelector('header.top').style.minHeight = '';
}

// The toast's margin inside the title bar, around and on each side.
const INSET = 4;
// Narrower than this beside the bar's names (a phone), a toast that does not fit there on
// one line takes the bar's whole width.
const BESIDE = 360;

/** The toast's room is the title bar: beside its names (the brand, the game's) where the
 * bar is wide enough, over its whole width otherwise (a phone), as tall as the bar. One
 * that needs more lines than the bar holds makes the bar taller while it shows, so that it
 * covers nothing under it: two lines lay over the game's title line (variant, deal, move,
 * counters) for their seconds. (With the page scrolled past the bar it lies at the top of
 * the window, as the bar's place is out of view.) */
function placeToast(node) {
  const bar = document.querySelector('header.top');
  bar.style.minHeight = '';
  const { width, height } = bar.getBoundingClientRect();
  const names = [...bar.querySelectorAll('.brand, .where')]
    .map((n) => n.getBoundingClientRect())
    .filter((r) => r.width > 0)
    .reduce((right, r) => Math.max(right, r.right), 0);
  // (beside them also where a short one fits there: "Thinking…" on a phone)
  node.style.maxWidth = 'none';
  const besides = width - names - 3 * INSET;
  const beside = besides >= Math.min(BESIDE, node.offsetWidth);
  const start = beside ? names + 2 * INSET : INSET;
  const room = width - start - INSET;
  node.style.maxWidth = `${room}px`;
  node.style.minHeight = `${height - 2 * INSET}px`;
  node.style.left = `${start + (room - node.offsetWidth) / 2}px`;
  const needs = node.offsetHeight + 2 * INSET;
  if (needs > height && window.scrollY < height) bar.style.minHeight = `${needs}px`;
}

window.addEventListener('resize', () => {
  const node = document.getElementById('toast');
  if (node?.classList.contains('shown')) placeToast(node);
});

/** A variant key as people read it: the stored `gaps[penalty=2.0,twos_first=True]` is
 * "Standard (penalty 2, twos first on)", the variant by its title from the game's spec
 * (`titles`: name → title, as /api/games and the table's state send them). The key itself
 * stays as it is (statistics, saves, addresses). */
export function variantWords(key, titles) {
  const found = /^([^[]*)\[(.*)\]$/.exec(key ?? '');
  const name = found ? found[1] : key;
  const title = titles?.[name] ?? name;
  if (!found) return title;
  const changed = found[2].split(',').map((pair) => {
    const [name, value] = pair.split('=');
    // (stored as Python writes them: True, 2.0)
    const flag = { true: 'on', false: 'off' }[value?.toLowerCase()];
    const shown = flag ?? value?.replace(/^(-?\d+)\.0$/, '$1');
    return `${name.replaceAll('_', ' ')} ${shown}`;
  });
  return `${title} (${changed.join(', ')})`;
}
