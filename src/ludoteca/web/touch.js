// Touch screens: where the pointer is a finger, the page says "tap", not "click".

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

