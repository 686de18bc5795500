// Touch screens: where the pointer is a finger, the page says "tap", not "click", and asks
// to turn a phone held upright sideways for a table too wide for it.

/** Whether the pointer is a finger (a phone, a tablet), as the style sheet's `pointer: coarse`. */
export const coarse = () => window.matchMedia('(pointer: coarse)').matches;

const TAPPED = { '': '', s: 's', ed: 'ped', ing: 'ping' };

/** The text in the words of this screen: "click a lit arrow" is "tap a lit arrow" under a
 * finger (clicks, clicked, a double click likewise); unchanged with a mouse. */
export function tap(text) {
  if (!coarse()) return text;
  return text.replace(/\b([Cc])lick(s|ed|ing)?\b/g,
    (_, c, end = '') => `${c === 'C' ? 'T' : 't'}ap${TAPPED[end]}`);
}

/** The same for every text inside node (the rules dialog's "Playing on the web page"). */
export function tapAll(node) {
  if (!coarse()) return;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    text.nodeValue = tap(text.nodeValue);
  }
}

// Wider than this many units, a table is drawn under 0.6 of life size on a phone held
// upright (370 px for the board): Gaps's thirteen columns (820 units) had cards 25 x 36 px,
// 53 x 76 held sideways. The style sheet shows the note only upright, under a finger.
const WIDE = 600;
const NOTE_OFF = 'ludoteca.sideways-note';

/** After each drawing: whether the table is too wide for a phone held upright. */
export function markWide(page, board) {
  page.dataset.wide = String(board.width > WIDE);
}

/** The note's ✕ puts it away, in this browser for good (it said so once). */
export function sidewaysNote(page) {
  const note = page.querySelector('.sideways');
  note.hidden = localStorage.getItem(NOTE_OFF) === 'off';
  note.querySelector('button').addEventListener('click', () => {
    localStorage.setItem(NOTE_OFF, 'off');
    note.hidden = true;
  });
}
