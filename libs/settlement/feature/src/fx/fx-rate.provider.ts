// Where EUR->USDC rates come from. Static in sandbox; a market source plugs in behind the same
// interface (bind FX_RATE_PROVIDER to it) and reports when it last refreshed.
export interface FxRate {
  rate: string; // USDC per EUR, decimal string
  updatedAt: Date;
  source: string;
}

export interface FxRateProvider {
  currentRate(): Promise<FxRate>;
}

export const FX_RATE_PROVIDER = Symbol('FX_RATE_PROVIDER');

// A configured rate is by definition current: it is "refreshed" every time it is read.
export class StaticFxRateProvider implements FxRateProvider {
  constructor(
    private readonly rate: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async currentRate(): Promise<FxRate> {
    return { rate: this.rate, updatedAt: this.clock(), source: 'static' };
  }
}
