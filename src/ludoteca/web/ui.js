// Small pieces of page furniture shared by the views: the rules dialog, the toast.

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
  } catch (err) {
    body.textContent = `The rules could not be loaded (${err.message}).`;
  }
}

export function toast(message, kind = 'info') {
  const node = document.getElementById('toast');
  node.textContent = message;
  node.dataset.kind = kind;
  node.classList.add('shown');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => node.classList.remove('shown'), 3500);
}
