import { KNOWN_TEST_CHAINS, REAL_MONEY_CHAINS, sandboxChainProblem } from './chain-networks';

describe('sandboxChainProblem', () => {
  it.each([1, 10, 56, 137, 8453, 42161, 42170, 43114])(
    'refuses mainnet %i in sandbox, with no override',
    (id) => {
      expect(sandboxChainProblem('sandbox', id, undefined)).toMatch(
        new RegExp(`CHAIN_ID ${id} is ${REAL_MONEY_CHAINS[id]}, a network with real money`),
      );
      expect(sandboxChainProblem('sandbox', id, `mine:${id}`)).toMatch(/no setting overrides this/);
    },
  );

  it('accepts local chains and known testnets in sandbox', () => {
    for (const id of Object.keys(KNOWN_TEST_CHAINS).map(Number)) {
      expect(sandboxChainProblem('sandbox', id, undefined)).toBeUndefined();
    }
  });

  it('accepts another chain id in sandbox only when SANDBOX_TESTNET names that very id', () => {
    expect(sandboxChainProblem('sandbox', 987654, undefined)).toMatch(
      'CHAIN_ID 987654 is not a known testnet: ONRAMP_MODE=sandbox runs only on test chains; if it is one, name it with SANDBOX_TESTNET=<name>:987654',
    );
    expect(sandboxChainProblem('sandbox', 987654, 'my-devnet:987654')).toBeUndefined();
    expect(sandboxChainProblem('sandbox', 987654, 'my-devnet:987655')).toMatch(/not a known testnet/);
    expect(sandboxChainProblem('sandbox', 987654, '987654')).toMatch(
      /SANDBOX_TESTNET must be <name>:<chain id>/,
    );
  });

  it('leaves production alone (its own checks apply)', () => {
    expect(sandboxChainProblem('production', 42161, undefined)).toBeUndefined();
  });

  it('keeps the two lists apart', () => {
    for (const id of Object.keys(KNOWN_TEST_CHAINS)) expect(REAL_MONEY_CHAINS[Number(id)]).toBeUndefined();
  });
});
