// The call data of an ERC-20 `transfer(address,uint256)`, written out by hand: ethers' Interface
// looks the function up by name and runs its generic ABI coders for these two words, which cost as
// much CPU per payout as a tenth of the signature (docs/performance-journal.md, P3). The layout is fixed by
// the ABI: the function's selector, then each argument left-padded to 32 bytes.
const TRANSFER_SELECTOR = '0xa9059cbb'; // the first 4 bytes of keccak256('transfer(address,uint256)')
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT256_LIMIT = 1n << 256n;

// The recipient's EIP-55 checksum is not checked here: addresses are checked when an order is made.
export function encodeErc20Transfer(recipient: string, baseUnits: bigint): string {
  if (!ADDRESS.test(recipient)) throw new TypeError(`not an address: ${recipient}`);
  if (baseUnits < 0n || baseUnits >= UINT256_LIMIT)
    throw new RangeError(`a transfer amount must fit uint256, got ${baseUnits}`);
  return (
    TRANSFER_SELECTOR +
    recipient.slice(2).toLowerCase().padStart(64, '0') +
    baseUnits.toString(16).padStart(64, '0')
  );
}

// The first 4 bytes of keccak256 of each view function's signature.
export const BALANCE_OF_SELECTOR = '0x70a08231'; // balanceOf(address)
export const IS_BLACKLISTED_SELECTOR = '0xfe575a87'; // isBlacklisted(address), Circle's FiatToken

// The call data of a view function taking one address (balanceOf, isBlacklisted).
export function encodeAddressCall(selector: string, account: string): string {
  if (!ADDRESS.test(account)) throw new TypeError(`not an address: ${account}`);
  return selector + account.slice(2).toLowerCase().padStart(64, '0');
}

const WORD = /^0x[0-9a-fA-F]{64}$/;

// The one 32-byte word a view function returning uint256 or bool answers with. Anything else (an
// empty answer: no contract at that address) is refused, as ethers' decoder would.
function singleWord(data: unknown, what: string): bigint {
  if (typeof data !== 'string' || !WORD.test(data))
    throw new Error(`could not decode the ${what} answer of an eth_call: ${JSON.stringify(data)}`);
  return BigInt(data);
}

export function decodeUint256(data: unknown): bigint {
  return singleWord(data, 'uint256');
}

export function decodeBool(data: unknown): boolean {
  const word = singleWord(data, 'bool');
  if (word > 1n) throw new Error(`could not decode the bool answer of an eth_call: ${String(data)}`);
  return word === 1n;
}
