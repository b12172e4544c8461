import { createHash } from 'node:crypto';

/**
 * The one script of the console: it shows the copy button next to a secret and copies the field's
 * value. Without it (scripts off) the button stays hidden and the read-only field is selectable.
 * Inlined, and allowed by the CSP by its hash.
 */
export const COPY_SCRIPT = `for (const b of document.querySelectorAll('button[data-copy]')) {
  const f = document.getElementById(b.dataset.copy);
  const s = document.getElementById(b.dataset.status);
  b.hidden = false;
  b.addEventListener('click', async () => {
    f.select();
    try { await navigator.clipboard.writeText(f.value); } catch { document.execCommand('copy'); }
    s.textContent = b.dataset.done;
  });
}`;

export const COPY_SCRIPT_HASH = `sha256-${createHash('sha256').update(COPY_SCRIPT).digest('base64')}`;
