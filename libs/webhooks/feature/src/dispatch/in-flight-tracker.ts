// Counts the sends under way in this process, per merchant and in total, so that one merchant's
// slow endpoint can hold at most its own share of the dispatcher.
export class InFlightTracker {
  private readonly byMerchant = new Map<string, number>();
  private count = 0;

  total(): number {
    return this.count;
  }

  of(merchantId: string): number {
    return this.byMerchant.get(merchantId) ?? 0;
  }

  acquire(merchantId: string): void {
    this.byMerchant.set(merchantId, this.of(merchantId) + 1);
    this.count++;
  }

  release(merchantId: string): void {
    const n = this.of(merchantId) - 1;
    if (n <= 0) this.byMerchant.delete(merchantId);
    else this.byMerchant.set(merchantId, n);
    this.count = Math.max(0, this.count - 1);
  }

  snapshot(): { merchantIds: string[]; counts: number[] } {
    return { merchantIds: [...this.byMerchant.keys()], counts: [...this.byMerchant.values()] };
  }
}
