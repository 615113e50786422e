// What one step did with one settlement. "idle": nothing was due; the loop moves on.
export type StepResult =
  | { kind: 'idle' }
  | { kind: 'signed' | 'broadcast' | 'replaced' | 'waiting' | 'deferred'; orderUuid: string }
  | { kind: 'finalized'; orderUuid: string; outcome: 'CONFIRMED' | 'FAILED' };

// Lets the worker know which settlement a step was on when it threw.
export type OnPicked = (orderUuid: string) => void;
