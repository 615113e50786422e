import { h } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);

// Loads `load()` now and on every `reload()`; keeps the last good data while reloading.
export function useResource(load, deps) {
  const [state, setState] = useState({ loading: true, data: undefined, error: undefined });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ loading: false, data, error: undefined }),
      (error) => live && setState((s) => ({ loading: false, data: s.data, error })),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

export function ErrorNote({ error }) {
  if (!error || error.status === 401) return null;
  return html`<p class="error" role="alert">${error.message}</p>`;
}

export function StatusBadge({ status }) {
  return html`<span class=${`badge badge-${String(status).toLowerCase()}`}>${status}</span>`;
}

export function formatTime(iso) {
  return iso
    ? new Date(iso)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
    : '';
}

// Money travels as JSON numbers in the API; shown as received, never recomputed.
export function formatEur(amount) {
  return amount === undefined || amount === null ? '' : `${amount} EUR`;
}

export function explorerLink(hash) {
  const template = document.querySelector('meta[name="onramp-explorer-tx-url"]')?.content ?? '';
  if (!hash) return null;
  if (!template) return html`<code class="hash" data-testid="tx-hash">${hash}</code>`;
  return html`<a
    class="hash"
    data-testid="tx-hash"
    href=${template.replace('{hash}', hash)}
    target="_blank"
    rel="noopener noreferrer"
    >${hash}</a
  >`;
}
