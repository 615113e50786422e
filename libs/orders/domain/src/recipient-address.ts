import { getAddress, ZeroAddress } from 'ethers';

export type AddressCheck = { ok: true; address: string } | { ok: false; message: string };

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

// An EVM address as the order will store it: EIP-55 checksummed. All-lowercase or all-uppercase
// input carries no checksum and is accepted; mixed case must match its checksum (a typo detector).
export function checkRecipientAddress(value: unknown, field = 'recepientAddress'): AddressCheck {
  if (typeof value !== 'string' || !HEX_ADDRESS.test(value)) {
    return { ok: false, message: `${field} must be an EVM address: 0x followed by 40 hex characters` };
  }
  let address: string;
  try {
    address = getAddress(value);
  } catch {
    return { ok: false, message: `${field} has an invalid EIP-55 checksum` };
  }
  if (address === ZeroAddress) return { ok: false, message: `${field} must not be the zero address` };
  return { ok: true, address };
}
