import { completionMessage } from './order-outcome';

describe('completionMessage', () => {
  it('names the amounts as decimal strings, digits unchanged', () => {
    expect(completionMessage('100.10', '107.02692', '0x52908400098527886E0F7030069857D2E4169EE7')).toBe(
      'Payment of 100.10 EUR received; 107.02692 USDC sent to 0x52908400098527886E0F7030069857D2E4169EE7',
    );
  });
});
