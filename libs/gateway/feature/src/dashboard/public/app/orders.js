import { useEffect, useState } from 'preact/hooks';

import { ApiError, getJson, request, sendJson } from './api.js';
import { ErrorNote, explorerLink, formatEur, formatTime, html, StatusBadge, useResource } from './ui.js';

export function OrdersPage() {
  const orders = useResource(() => getJson('/orders?limit=50'), []);
  return html`
    <section>
      <header class="section-head">
        <h2>Orders</h2>
        <button class="secondary" onClick=${orders.reload}>Refresh</button>
      </header>
      <${ErrorNote} error=${orders.error} />
      ${orders.data && orders.data.length === 0 && html`<p class="muted">No orders yet: create one with <code>POST /orders/create</code>.</p>`}
      ${
        orders.data &&
        orders.data.length > 0 &&
        html` <table data-testid="orders-table">
          <thead>
            <tr>
              <th>Created</th>
              <th>Order</th>
              <th>Amount</th>
              <th>Status</th>
              <th>Reference</th>
            </tr>
          </thead>
          <tbody>
            ${orders.data.map(
              (o) =>
                html` <tr key=${o.uuid}>
                  <td>${formatTime(o.createdAt)}</td>
                  <td>
                    <a href=${`#/orders/${o.uuid}`} data-testid="order-link"><code>${o.uuid}</code></a>
                  </td>
                  <td class="num">${formatEur(o.amount)}</td>
                  <td><${StatusBadge} status=${o.status} /></td>
                  <td><code>${o.reference}</code></td>
                </tr>`,
            )}
          </tbody>
        </table>`
      }
    </section>
  `;
}

// GET /orders/{uuid}/payment-qr answers an SVG once the platform has it; until then (404) the slot
// stays empty and the payment details above are what the end user needs.
function PaymentQr({ uuid }) {
  const [src, setSrc] = useState(undefined);
  useEffect(() => {
    let url;
    let live = true;
    request('GET', `/orders/${uuid}/payment-qr`)
      .then((res) => res.blob())
      .then((blob) => {
        if (!live || !blob.type.startsWith('image/')) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [uuid]);
  if (!src) return null;
  return html`<figure class="qr">
    <img src=${src} alt="SEPA payment QR code" data-testid="payment-qr" />
    <figcaption>Scan with a banking app</figcaption>
  </figure>`;
}

function SimulatePayment({ order, onDone }) {
  const [amount, setAmount] = useState(String(order.amount));
  const [payerName, setPayerName] = useState('Sandbox Payer');
  const [result, setResult] = useState(undefined);
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await sendJson('POST', '/sandbox/sepa-credits', {
        reference: order.reference,
        amount,
        currency: 'EUR',
        payerName,
      });
      setResult('The sandbox bank booked the transfer; the order moves on in a moment.');
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return html`
    <form class="card" onSubmit=${submit} data-testid="simulate-form">
      <h3>Simulate the SEPA payment</h3>
      <p class="muted">
        Books a credit on the sandbox bank with this order's reference, as the end user's bank would.
      </p>
      <label
        >Amount (EUR)
        <input
          name="amount"
          inputmode="decimal"
          value=${amount}
          onInput=${(e) => setAmount(e.currentTarget.value)}
      /></label>
      <label
        >Payer name
        <input name="payerName" value=${payerName} onInput=${(e) => setPayerName(e.currentTarget.value)}
      /></label>
      <button type="submit" disabled=${busy} data-testid="simulate-payment">Simulate payment</button>
      ${result && html`<p class="ok" data-testid="simulate-result">${result}</p>`}
      <${ErrorNote} error=${error} />
    </form>
  `;
}

export function OrderPage({ uuid }) {
  const order = useResource(() => getJson(`/orders/${uuid}/payment-details`), [uuid]);
  const history = useResource(() => getJson(`/orders/${uuid}/status-history`), [uuid]);
  const reload = () => {
    order.reload();
    history.reload();
  };
  // Follows an open order until it settles (the settlement takes a second or two in the sandbox).
  const open = order.data?.status === 'CREATED';
  useEffect(() => {
    if (!open) return undefined;
    const timer = setInterval(reload, 1500);
    return () => clearInterval(timer);
  }, [open]);

  const o = order.data;
  const notFound = order.error instanceof ApiError && order.error.status === 404;
  return html`
    <section>
      <p><a href="#/orders">All orders</a></p>
      <${ErrorNote} error=${order.error} />
      ${notFound && html`<p class="muted">No such order for this merchant.</p>`}
      ${
        o &&
        html` <header class="section-head">
            <h2>Order <code>${o.uuid}</code></h2>
            <${StatusBadge} status=${o.status} />
          </header>
          <div class="grid">
            <div class="card">
              <h3>Payment details</h3>
              <dl data-testid="payment-details">
                <dt>Amount</dt>
                <dd>${formatEur(o.amount)}</dd>
                <dt>IBAN</dt>
                <dd><code>${o.iban}</code></dd>
                <dt>BIC</dt>
                <dd><code>${o.bic}</code></dd>
                <dt>Reference</dt>
                <dd><code>${o.reference}</code></dd>
                <dt>Recipient</dt>
                <dd><code>${o.recepientAddress}</code></dd>
                <dt>KYC user</dt>
                <dd><code>${o.kycUserUuid}</code></dd>
                ${
                  o.payedAmount !== undefined &&
                  html`<dt>Paid</dt>
                    <dd>${formatEur(o.payedAmount)}</dd>`
                }
                ${
                  o.sentTokenAmount !== undefined &&
                  html`<dt>Sent</dt>
                    <dd>${o.sentTokenAmount} USDC</dd>`
                }
                ${
                  o.transactionHash &&
                  html`<dt>On chain</dt>
                    <dd>${explorerLink(o.transactionHash)}</dd>`
                }
                ${
                  o.failureReason &&
                  html`<dt>Failure</dt>
                    <dd>${o.failureReason}</dd>`
                }
              </dl>
              <${PaymentQr} uuid=${o.uuid} />
            </div>
            <div class="card">
              <h3>Status history</h3>
              <${ErrorNote} error=${history.error} />
              <ol class="timeline" data-testid="status-history">
                ${(history.data ?? []).map(
                  (h) =>
                    html` <li key=${h.at + h.to}>
                      <${StatusBadge} status=${h.to} /> <span class="muted">${formatTime(h.at)}</span>
                      ${h.reason && html`<div class="muted">${h.reason}</div>`}
                    </li>`,
                )}
              </ol>
            </div>
            ${o.status === 'CREATED' && html`<${SimulatePayment} order=${o} onDone=${reload} />`}
          </div>`
      }
    </section>
  `;
}
