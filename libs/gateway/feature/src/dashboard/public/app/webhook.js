import { useState } from 'preact/hooks';

import { ApiError, getJson, sendJson } from './api.js';
import { ErrorNote, formatTime, html, StatusBadge, useResource } from './ui.js';

async function loadEndpoint() {
  try {
    return await getJson('/merchant/webhook');
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null; // none registered yet
    throw e;
  }
}

function testSummary(test) {
  const outcome = test.delivered ? `delivered (HTTP ${test.statusCode})` : `failed: ${test.error}`;
  return `Test event ${test.eventId}: ${outcome} in ${test.durationMs} ms`;
}

function EndpointCard({ endpoint, onChange }) {
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [secret, setSecret] = useState(undefined);
  const [test, setTest] = useState(undefined);
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);

  const run = async (action) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const save = (event) => {
    event.preventDefault();
    return run(async () => {
      const result = await sendJson('PUT', '/merchant/webhook', { url });
      if (result.secret) setSecret(result.secret);
      onChange();
    });
  };
  const reveal = () => run(async () => setSecret((await getJson('/merchant/webhook/secret')).secret));
  const rotate = () =>
    run(async () => {
      if (!window.confirm('Rotate the signing secret? Deliveries are signed with the new one from now on.'))
        return;
      setSecret((await sendJson('POST', '/merchant/webhook/rotate-secret')).secret);
    });
  const sendTest = () => run(async () => setTest(await sendJson('POST', '/merchant/webhook/test')));

  return html`
    <div class="card">
      <h3>Endpoint</h3>
      <form onSubmit=${save} class="inline" data-testid="webhook-form">
        <label
          >URL
          <input
            name="url"
            type="url"
            required
            placeholder="https://shop.example/hooks/onramp"
            value=${url}
            onInput=${(e) => setUrl(e.currentTarget.value)}
        /></label>
        <button type="submit" disabled=${busy}>${endpoint ? 'Change URL' : 'Register'}</button>
      </form>
      ${
        endpoint &&
        html` <p class="muted">
            ${`Since ${formatTime(endpoint.createdAt)} `}${endpoint.disabled ? html` <${StatusBadge} status="DISABLED" /> ${endpoint.disabledReason}` : ''}
          </p>
          <div class="actions">
            <button class="secondary" onClick=${reveal} disabled=${busy} data-testid="reveal-secret">
              Reveal secret
            </button>
            <button class="secondary" onClick=${rotate} disabled=${busy} data-testid="rotate-secret">
              Rotate secret
            </button>
            <button onClick=${sendTest} disabled=${busy} data-testid="send-test">Send test event</button>
          </div>`
      }
      ${secret && html`<p>Signing secret: <code data-testid="webhook-secret">${secret}</code></p>`}
      ${
        test &&
        html` <p class=${test.delivered ? 'ok' : 'error'} data-testid="test-result">${testSummary(test)}</p>`
      }
      <${ErrorNote} error=${error} />
    </div>
  `;
}

function Deliveries() {
  const deliveries = useResource(() => getJson('/merchant/webhook/deliveries?limit=50'), []);
  const [error, setError] = useState(undefined);
  const redeliver = async (id) => {
    setError(undefined);
    try {
      await sendJson('POST', `/merchant/webhook/deliveries/${id}/redeliver`);
      deliveries.reload();
    } catch (e) {
      setError(e);
    }
  };
  return html`
    <div class="card wide">
      <header class="section-head">
        <h3>Delivery log</h3>
        <button class="secondary" onClick=${deliveries.reload}>Refresh</button>
      </header>
      <${ErrorNote} error=${deliveries.error ?? error} />
      ${deliveries.data && deliveries.data.length === 0 && html`<p class="muted">No deliveries yet.</p>`}
      ${
        deliveries.data &&
        deliveries.data.length > 0 &&
        html` <table data-testid="deliveries-table">
          <thead>
            <tr>
              <th>Created</th>
              <th>Event</th>
              <th>Order</th>
              <th>Status</th>
              <th>Attempts</th>
              <th>Last answer</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            ${deliveries.data.map(
              (d) =>
                html` <tr key=${d.id}>
                  <td>${formatTime(d.createdAt)}</td>
                  <td>${d.eventType}</td>
                  <td>
                    <a href=${`#/orders/${d.orderUuid}`}><code>${d.orderUuid.slice(0, 8)}</code></a>
                  </td>
                  <td><${StatusBadge} status=${d.status} /></td>
                  <td class="num">${d.attempts}</td>
                  <td>${d.lastStatusCode ?? ''} ${d.lastError ?? ''}</td>
                  <td>
                    <button class="secondary small" onClick=${() => redeliver(d.id)} data-testid="redeliver">
                      Redeliver
                    </button>
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>`
      }
    </div>
  `;
}

export function WebhookPage() {
  const endpoint = useResource(loadEndpoint, []);
  return html`
    <section>
      <header class="section-head"><h2>Webhooks</h2></header>
      <${ErrorNote} error=${endpoint.error} />
      <div class="grid">
        ${endpoint.data !== undefined && html`<${EndpointCard} key=${endpoint.data?.url ?? 'none'} endpoint=${endpoint.data} onChange=${endpoint.reload} />`}
        <${Deliveries} />
      </div>
    </section>
  `;
}
