import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import { hasToken, logout, onLogout } from './api.js';
import { KycPage } from './kyc.js';
import { LoginPage } from './login.js';
import { OrderPage, OrdersPage } from './orders.js';
import { html } from './ui.js';
import { WebhookPage } from './webhook.js';

// Hash routes: #/orders, #/orders/<uuid>, #/kyc, #/webhook.
function currentRoute() {
  const [, page = 'orders', id] = window.location.hash.replace(/^#/, '').split('/');
  return { page, id };
}

function Nav({ page }) {
  const link = (href, name, label) =>
    html`<a href=${href} class=${page === name ? 'active' : ''} data-testid=${`nav-${name}`}>${label}</a>`;
  return html`
    <nav>
      <strong>onramp</strong> <span class="muted">sandbox</span>
      ${link('#/orders', 'orders', 'Orders')} ${link('#/kyc', 'kyc', 'KYC users')}
      ${link('#/webhook', 'webhook', 'Webhooks')}
      <button class="secondary small" onClick=${() => logout('Signed out.')} data-testid="logout">
        Sign out
      </button>
    </nav>
  `;
}

function App() {
  const [signedIn, setSignedIn] = useState(hasToken());
  const [notice, setNotice] = useState(undefined);
  const [route, setRoute] = useState(currentRoute());

  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    window.addEventListener('hashchange', onHash);
    const off = onLogout((reason) => {
      setNotice(reason);
      setSignedIn(false);
    });
    return () => {
      window.removeEventListener('hashchange', onHash);
      off();
    };
  }, []);

  if (!signedIn) {
    return html`<${LoginPage}
      notice=${notice}
      onLogin=${() => {
        setNotice(undefined);
        setSignedIn(true);
      }}
    />`;
  }
  let content;
  if (route.page === 'orders' && route.id) content = html`<${OrderPage} key=${route.id} uuid=${route.id} />`;
  else if (route.page === 'kyc') content = html`<${KycPage} />`;
  else if (route.page === 'webhook') content = html`<${WebhookPage} />`;
  else content = html`<${OrdersPage} />`;
  return html`<${Nav} page=${route.page} />
    <main>${content}</main>`;
}

render(html`<${App} />`, document.getElementById('app'));
