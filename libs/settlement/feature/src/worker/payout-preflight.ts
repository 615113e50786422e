import { usdcToString } from '@onramp/money';
import { checkPayoutCaps, FeeParams, maxGasPrice } from '@onramp/settlement-domain';

import { PayoutCaps } from '../config';

// Why a transfer of `baseUnits` is over a payout cap, given what the signer signed in the last 24 h,
// or undefined when it is within both.
export function overCapReason(baseUnits: bigint, signedToday: bigint, caps: PayoutCaps): string | undefined {
  const d = checkPayoutCaps(baseUnits, signedToday, caps);
  switch (d.kind) {
    case 'within':
      return undefined;
    case 'over-per-transfer':
      return `${usdcToString(d.amount)} USDC is above SETTLEMENT_MAX_PER_TRANSFER_USDC ${usdcToString(d.cap)}; an operator must release it`;
    case 'over-per-day':
      return (
        `${usdcToString(d.amount)} USDC on top of ${usdcToString(d.signedInWindow)} signed in the last 24 h ` +
        `is above SETTLEMENT_MAX_PER_DAY_USDC ${usdcToString(d.cap)}; signed once the window has room, or when an operator releases it`
      );
  }
}

// Describes what is missing, or returns undefined when the wallet can pay this transfer on top
// of everything it has already signed. Gas is counted at the most a transfer may use (the fixed
// limit, or the ceiling): conservative, as the estimate comes later.
export function walletShortfall(w: {
  address: string;
  gasPerTransfer: bigint;
  baseUnits: bigint;
  fees: FeeParams;
  usdc: bigint;
  eth: bigint;
  inFlight: { baseUnits: bigint; count: bigint };
}): string | undefined {
  const needUsdc = w.baseUnits + w.inFlight.baseUnits;
  const needWei = w.gasPerTransfer * maxGasPrice(w.fees) * (w.inFlight.count + 1n);
  const missing: string[] = [];
  if (w.usdc < needUsdc)
    missing.push(`${w.address} holds ${usdcToString(w.usdc)} USDC, needs ${usdcToString(needUsdc)}`);
  if (w.eth < needWei) missing.push(`${w.address} holds ${w.eth} wei for gas, needs ${needWei}`);
  return missing.length > 0 ? missing.join('; ') : undefined;
}
