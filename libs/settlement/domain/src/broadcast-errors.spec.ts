import { makeError } from 'ethers';

import {
  classifyChainError,
  describeChainError,
  gasRejectionOf,
  isAlreadyKnownClue,
} from './broadcast-errors';

describe('isAlreadyKnownClue', () => {
  it('recognizes what ethers makes of "nonce too low" and replacement answers', () => {
    expect(isAlreadyKnownClue(makeError('nonce has already been used', 'NONCE_EXPIRED'))).toBe(true);
    expect(isAlreadyKnownClue(makeError('replacement fee too low', 'REPLACEMENT_UNDERPRICED'))).toBe(true);
  });

  it('recognizes node wordings that ethers leaves as UNKNOWN_ERROR', () => {
    const anvil = makeError('could not coalesce error', 'UNKNOWN_ERROR', {
      error: { code: -32003, message: 'transaction already imported' },
    });
    expect(isAlreadyKnownClue(anvil)).toBe(true);
    expect(isAlreadyKnownClue(new Error('already known'))).toBe(true); // geth
    expect(isAlreadyKnownClue(new Error('replacement transaction underpriced'))).toBe(true);
  });

  it('does not mistake real failures for clues', () => {
    expect(
      isAlreadyKnownClue(
        makeError('insufficient funds for intrinsic transaction cost', 'INSUFFICIENT_FUNDS'),
      ),
    ).toBe(false);
    expect(isAlreadyKnownClue(new Error('connect ECONNREFUSED 127.0.0.1:8545'))).toBe(false);
    expect(isAlreadyKnownClue(undefined)).toBe(false);
  });
});

describe('describeChainError', () => {
  it("keeps the node's words and drops the transaction bytes ethers appends", () => {
    const err = makeError('could not coalesce error', 'UNKNOWN_ERROR', {
      error: { code: -32003, message: 'Insufficient funds for gas * price + value' },
      payload: { method: 'eth_sendRawTransaction', params: ['0x02f86c'] },
    });
    const text = describeChainError(err);
    expect(text).toBe('could not coalesce error (Insufficient funds for gas * price + value)');
    expect(describeChainError('boom')).toBe('boom');
  });
});

describe('classifyChainError', () => {
  it('calls unanswered requests transient: timeouts, refused connections, 5xx, rate limits', () => {
    expect(classifyChainError(makeError('request timeout', 'TIMEOUT'))).toBe('transient');
    expect(classifyChainError(makeError('server response 502 Bad Gateway', 'SERVER_ERROR'))).toBe(
      'transient',
    );
    expect(
      classifyChainError(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8545'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe('transient');
    expect(classifyChainError(new Error('429 Too Many Requests'))).toBe('transient');
  });

  it('calls "already known", "nonce too low" and "replacement underpriced" clues, even when wrapped', () => {
    expect(classifyChainError(makeError('nonce has already been used', 'NONCE_EXPIRED'))).toBe('clue');
    const wrapped = new Error('broadcast of 0xabc failed', {
      cause: makeError('replacement fee too low', 'REPLACEMENT_UNDERPRICED'),
    });
    expect(classifyChainError(wrapped)).toBe('clue');
    expect(describeChainError(wrapped)).toBe('broadcast of 0xabc failed: replacement fee too low');
  });

  it('calls anything else a rejection', () => {
    expect(classifyChainError(makeError('insufficient funds', 'INSUFFICIENT_FUNDS'))).toBe('rejected');
    expect(classifyChainError(new Error('invalid sender'))).toBe('rejected');
  });
});

describe('gasRejectionOf', () => {
  it('reads "intrinsic gas too low" as a gas limit to raise, with what the node wants when it says', () => {
    const geth = makeError('could not coalesce error', 'UNKNOWN_ERROR', {
      error: { code: -32000, message: 'intrinsic gas too low: have 21000, want 53000' },
    });
    expect(gasRejectionOf(geth)).toEqual({ kind: 'gas-limit', wantedGas: 53_000n });
    expect(gasRejectionOf(new Error('intrinsic gas too low'))).toEqual({ kind: 'gas-limit' });
    expect(gasRejectionOf(new Error('broadcast failed', { cause: new Error('gas too low') }))).toEqual({
      kind: 'gas-limit',
    });
  });

  it('reads an underpriced or below-base-fee transaction as fees to raise', () => {
    expect(gasRejectionOf(new Error('transaction underpriced'))).toEqual({ kind: 'fee' });
    expect(gasRejectionOf(new Error('max fee per gas less than block base fee: address 0x1'))).toEqual({
      kind: 'fee',
    });
  });

  it('leaves clues and other failures alone', () => {
    expect(gasRejectionOf(new Error('replacement transaction underpriced'))).toBeUndefined();
    expect(gasRejectionOf(new Error('nonce too low'))).toBeUndefined();
    expect(gasRejectionOf(new Error('insufficient funds for gas * price + value'))).toBeUndefined();
  });
});
