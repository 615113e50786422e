import { useState } from 'preact/hooks';

import { login } from './api.js';
import { html } from './ui.js';

export function LoginPage({ notice, onLogin }) {
  const [merchantId, setMerchantId] = useState('');
  const [merchantSecret, setMerchantSecret] = useState('');
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await login(merchantId.trim(), merchantSecret);
      setMerchantSecret('');
      onLogin();
    } catch (e) {
      setError(e.status === 401 ? 'Unknown merchant id or wrong secret.' : e.message);
    } finally {
      setBusy(false);
    }
  };

  return html`
    <main class="login">
      <h1>onramp <span class="muted">sandbox dashboard</span></h1>
      ${notice && html`<p class="notice" data-testid="login-notice">${notice}</p>`}
      <form onSubmit=${submit} data-testid="login-form">
        <label
          >Merchant id
          <input
            name="merchantId"
            autocomplete="username"
            required
            value=${merchantId}
            onInput=${(e) => setMerchantId(e.currentTarget.value)}
        /></label>
        <label
          >Merchant secret
          <input
            name="merchantSecret"
            type="password"
            autocomplete="current-password"
            required
            value=${merchantSecret}
            onInput=${(e) => setMerchantSecret(e.currentTarget.value)}
        /></label>
        <button type="submit" disabled=${busy}>Sign in</button>
        ${error && html`<p class="error" role="alert">${error}</p>`}
      </form>
      <p class="muted">Both are printed by <code>npm start</code>. The token is kept for this tab only.</p>
    </main>
  `;
}
