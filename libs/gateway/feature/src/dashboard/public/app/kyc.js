import { getJson } from './api.js';
import { ErrorNote, formatTime, html, StatusBadge, useResource } from './ui.js';

// The KYC host's GET /kyc/get-all, reached through this origin's /dashboard/kyc (the gateway
// forwards it to the KYC service with the same token), so the page needs no CORS.
export function KycPage() {
  const users = useResource(() => getJson('/dashboard/kyc/get-all?limit=50'), []);
  return html`
    <section>
      <header class="section-head">
        <h2>KYC users</h2>
        <button class="secondary" onClick=${users.reload}>Refresh</button>
      </header>
      <${ErrorNote} error=${users.error} />
      ${users.data && users.data.length === 0 && html`<p class="muted">No KYC users yet: register one with <code>POST /kyc/add</code> on the KYC host.</p>`}
      ${
        users.data &&
        users.data.length > 0 &&
        html` <table data-testid="kyc-table">
          <thead>
            <tr>
              <th>Registered</th>
              <th>Name</th>
              <th>Email</th>
              <th>Country</th>
              <th>Status</th>
              <th>User</th>
            </tr>
          </thead>
          <tbody>
            ${users.data.map(
              (u) =>
                html` <tr key=${u.uuid}>
                  <td>${formatTime(u.createdAt)}</td>
                  <td>${u.firstName} ${u.lastName}</td>
                  <td>${u.email}</td>
                  <td>${u.nationality}</td>
                  <td>
                    <${StatusBadge}
                      status=${u.status}
                    />${u.statusReason && html` <span class="muted">${u.statusReason}</span>`}
                  </td>
                  <td><code>${u.uuid}</code></td>
                </tr>`,
            )}
          </tbody>
        </table>`
      }
    </section>
  `;
}
