// The dashboard's only way to the platform: the merchant API on this origin, with the token from
// POST /auth/token kept in sessionStorage (gone when the tab closes; the secret is never stored).
const TOKEN_KEY = 'onramp.dashboard.token';
const listeners = new Set();

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

export function hasToken() {
  return sessionStorage.getItem(TOKEN_KEY) !== null;
}

// Called with no argument when the session ends (401 or logout): the app shows the login form.
export function onLogout(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function logout(reason) {
  sessionStorage.removeItem(TOKEN_KEY);
  for (const listener of listeners) listener(reason);
}

async function problemOf(res) {
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

export async function login(merchantId, merchantSecret) {
  const res = await fetch('/auth/token', {
    method: 'POST',
    // Without credentials mode 'omit', the 401's Basic challenge opens the browser's password prompt.
    credentials: 'omit',
    headers: { authorization: `Basic ${btoa(`${merchantId}:${merchantSecret}`)}` },
  });
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  const body = await res.json();
  sessionStorage.setItem(TOKEN_KEY, body.access_token);
}

// Same rules as any API client: a 401 ends the session (back to login), any other non-2xx is an
// ApiError carrying the problem+json detail.
export async function request(method, path, body) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token === null) {
    logout('Please sign in.');
    throw new ApiError(401, { detail: 'not signed in' });
  }
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'omit', // the token is the only credential; no cookies, no browser auth prompt
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 401) {
    const problem = await problemOf(res);
    logout(`Session ended: ${problem?.detail || 'the token is no longer valid'}. Please sign in again.`);
    throw new ApiError(401, problem);
  }
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  return res;
}

export async function getJson(path) {
  return (await request('GET', path)).json();
}

export async function sendJson(method, path, body) {
  const res = await request(method, path, body);
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}
