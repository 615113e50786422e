export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

// What order.completed tells the merchant: the amounts exactly as they were paid and sent.
export const completionMessage = (
  payedAmount: string,
  sentTokenAmount: string,
  recipientAddress: string,
): string => `Payment of ${payedAmount} EUR received; ${sentTokenAmount} USDC sent to ${recipientAddress}`;
