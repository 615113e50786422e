// docs/api.md, Lifecycle of an order: CREATED -> COMPLETED | FAILED; terminal states never change.
export const ORDER_STATUSES = ['CREATED', 'COMPLETED', 'FAILED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type TerminalOrderStatus = Exclude<OrderStatus, 'CREATED'>;

const ALLOWED: Record<OrderStatus, readonly OrderStatus[]> = {
  CREATED: ['COMPLETED', 'FAILED'],
  COMPLETED: [],
  FAILED: [],
};

export class InvalidOrderTransitionError extends Error {
  constructor(
    readonly from: OrderStatus,
    readonly to: OrderStatus,
  ) {
    super(`an order cannot go from ${from} to ${to}`);
  }
}

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

export function isTerminal(status: OrderStatus): status is TerminalOrderStatus {
  return ALLOWED[status].length === 0;
}

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ALLOWED[from].includes(to);
}

export function assertTransition(from: OrderStatus, to: OrderStatus): void {
  if (!canTransition(from, to)) throw new InvalidOrderTransitionError(from, to);
}
