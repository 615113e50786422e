import { getAddress, ZeroAddress } from 'ethers';

export type AddressCheck = { ok: true; address: string } | { ok: false; message: string };

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

// getAddress hashes the address (keccak-256, in JavaScript) to check and apply its EIP-55 checksum,
// and an order checks the same text twice (the DTO's validator, then the use case): the last results
// are kept, by exact text (null: a wrong checksum).
const CHECKSUMS = new Map<string, string | null>();
const CHECKSUMS_KEPT = 1024;

function checksummed(value: string): string | null {
  const known = CHECKSUMS.get(value);
  if (known !== undefined) return known;
  let address: string | null;
  try {
    address = getAddress(value);
  } catch {
    address = null;
  }
  if (CHECKSUMS.size >= CHECKSUMS_KEPT) CHECKSUMS.delete(CHECKSUMS.keys().next().value as string);
  CHECKSUMS.set(value, address);
  return address;
}

// An EVM address as the order will store it: EIP-55 checksummed. All-lowercase or all-uppercase
// input carries no checksum and is accepted; mixed case must match its checksum (a typo detector).
export function checkRecipientAddress(value: unknown, field = 'recepientAddress'): AddressCheck {
  if (typeof value !== 'string' || !HEX_ADDRESS.test(value)) {
    return { ok: false, message: `${field} must be an EVM address: 0x followed by 40 hex characters` };
  }
  const address = checksummed(value);
  if (address === null) return { ok: false, message: `${field} has an invalid EIP-55 checksum` };
  if (address === ZeroAddress) return { ok: false, message: `${field} must not be the zero address` };
  return { ok: true, address };
}
