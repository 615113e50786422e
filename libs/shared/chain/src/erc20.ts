// Human-readable ABI (ethers v6) of what our services call on USDC, plus the test token's admin calls.
export const ERC20_ABI = [
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
] as const;

export const TEST_USDC_ADMIN_ABI = [
  'function mint(address to, uint256 amount)',
  'function blacklist(address account)',
  'function unBlacklist(address account)',
  'function isBlacklisted(address account) view returns (bool)',
] as const;

export const TEST_USDC_ABI = [...ERC20_ABI, ...TEST_USDC_ADMIN_ABI] as const;

// USDC has 6 decimals on every chain we support.
export const USDC_DECIMALS = 6;
