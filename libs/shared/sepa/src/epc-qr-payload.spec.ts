import { buildEpcQrPayload } from './epc-qr-payload';

describe('buildEpcQrPayload', () => {
  it('writes the EPC069-12 lines with the RF reference in the structured field', () => {
    expect(
      buildEpcQrPayload({
        beneficiaryName: 'Onramp Collections GmbH',
        iban: 'DE89 3704 0044 0532 0130 00',
        bic: 'COBADEFFXXX',
        amount: '100.50',
        reference: 'RF98K7QW4M2XZP9D3HB8NT',
      }),
    ).toBe(
      'BCD\n002\n1\nSCT\nCOBADEFFXXX\nOnramp Collections GmbH\nDE89370400440532013000\nEUR100.5\n\nRF98K7QW4M2XZP9D3HB8NT',
    );
  });

  it('leaves the BIC empty when unknown and puts a non-RF reference in the free text', () => {
    expect(
      buildEpcQrPayload({
        beneficiaryName: 'Zoë AG',
        iban: 'DE89370400440532013000',
        amount: '7',
        reference: 'order 42',
      }),
    ).toBe('BCD\n002\n1\nSCT\n\nZoë AG\nDE89370400440532013000\nEUR7\n\n\norder 42');
  });

  it('refuses fields a banking app would reject', () => {
    const ok = {
      beneficiaryName: 'A',
      iban: 'DE89370400440532013000',
      amount: '1',
      reference: 'RF18539007547034',
    };
    expect(() => buildEpcQrPayload({ ...ok, amount: '0' })).toThrow(/amount/);
    expect(() => buildEpcQrPayload({ ...ok, amount: '1000000000' })).toThrow(/amount/);
    expect(() => buildEpcQrPayload({ ...ok, beneficiaryName: 'x'.repeat(71) })).toThrow(/name/);
    expect(() => buildEpcQrPayload({ ...ok, iban: 'not an iban' })).toThrow(/IBAN/);
    expect(() => buildEpcQrPayload({ ...ok, bic: 'BAD' })).toThrow(/BIC/);
  });
});
