import { forbiddenAddressReason, isLinkLocalAddress, isLoopbackAddress } from './address-policy';
import { parseIp } from './ip-address';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface UrlPolicyOptions {
  sandbox: boolean;
  // WEBHOOK_ALLOWED_ADDRESSES: exact IP addresses the operator lets production webhooks reach although
  // the address policy forbids them (an in-cluster receiver, a staging or test receiver on loopback).
  // Operator configuration only: nothing a merchant sends can add to it, and https stays required.
  allowedAddresses?: readonly string[];
}

// The canonical text of an address ("::FFFF:7f00:1" and "::ffff:127.0.0.1" are one address), or null.
function canonicalIp(ip: string): string | null {
  const parsed = parseIp(ip);
  return parsed === null ? null : JSON.stringify(parsed);
}

export function isOperatorAllowedAddress(ip: string, allowed: readonly string[] | undefined): boolean {
  if (!allowed || allowed.length === 0) return false;
  const canonical = canonicalIp(ip);
  return canonical !== null && allowed.some((a) => canonicalIp(a) === canonical);
}

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

const fail = (reason: string): WebhookUrlCheck => ({ ok: false, reason });

// Hostname as the resolver sees it: no IPv6 brackets, no trailing root dot, lower case.
function hostOf(url: URL): string {
  const h = url.hostname.toLowerCase().replace(/\.$/, '');
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

const isLocalhostName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

// Registration-time check (docs/api.md, Webhooks). The WHATWG parser has already normalised numeric
// tricks (http://2130706433, 0x7f.1) to dotted quads, so literal addresses are judged as addresses.
// Hostnames are judged again at connect time, by the address they resolve to.
export function checkWebhookUrl(raw: string, opts: UrlPolicyOptions): WebhookUrlCheck {
  if (typeof raw !== 'string' || raw.trim() === '') return fail('url is required');
  if (raw.length > MAX_WEBHOOK_URL_LENGTH)
    return fail(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('url must be an absolute https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('url must use https');
  if (url.username !== '' || url.password !== '') return fail('url must not contain credentials');
  const host = hostOf(url);
  if (host === '') return fail('url must have a host');

  const isIp = parseIp(host) !== null;
  const loopback = isIp ? isLoopbackAddress(host) : isLocalhostName(host);
  if (url.protocol === 'http:' && !(opts.sandbox && loopback)) {
    return fail(
      opts.sandbox
        ? 'url must use https (plain http is allowed only to loopback in sandbox)'
        : 'url must use https',
    );
  }

  if (opts.sandbox) {
    if (isIp && isLinkLocalAddress(host)) return fail('url must not point to a link-local address');
    return { ok: true, url: url.href };
  }
  if (isIp) {
    const reason = forbiddenAddressReason(host);
    if (reason && !isOperatorAllowedAddress(host, opts.allowedAddresses))
      return fail(`url must not point to a ${reason}`);
  } else {
    if (isLocalhostName(host)) return fail('url must not point to localhost');
    // A single-label name resolves through search domains, i.e. to something internal.
    if (!host.includes('.')) return fail('url host must be a fully qualified domain name');
  }
  return { ok: true, url: url.href };
}

// Connect-time check of each resolved address (defeats DNS rebinding). Returns why the address is
// refused, or null. In sandbox plain http may reach only loopback; link-local is never allowed.
export function connectAddressViolation(
  ip: string,
  opts: UrlPolicyOptions & { protocol: 'http:' | 'https:' },
): string | null {
  if (!opts.sandbox)
    return isOperatorAllowedAddress(ip, opts.allowedAddresses) ? null : forbiddenAddressReason(ip);
  if (parseIp(ip) === null) return 'not an IP address';
  if (opts.protocol === 'http:' && !isLoopbackAddress(ip))
    return 'plain http may reach only loopback in sandbox';
  if (isLinkLocalAddress(ip)) return 'link-local address';
  return null;
}
