import { defaultPayerNamePolicy, payerNameMatches, payerNameScore } from './payer-name';

describe('payerNameMatches', () => {
  it.each([
    ['Jürgen Müller-Lüdenscheidt', 'Jurgen Muller-Ludenscheidt'],
    ['MUELLER JUERGEN', 'Jürgen Müller'],
    ['Dupont Frédéric', 'Frederic Dupont'],
    ['Ana García', 'Ana Núñez García'],
    ['Maria Anna Schmidt', 'Maria Schmidt'],
    ['Łukasz Żółkiewski', 'Lukasz Zolkiewski'],
    ['Søren Kierkegaard', 'Soren Kierkegaard'],
    ['Hélène Lefèvre Chateau', 'Helene Lefevre-Château'],
    ['Frederic Dupond', 'Frédéric Dupont'], // one slip in a long word
  ])('%s pays for %s', (payer, holder) => expect(payerNameMatches(payer, holder)).toBe(true));

  it.each([
    ['Ana Núñez García', 'Jane Doe'],
    ['Schmidt', 'Maria Schmidt'], // one shared word is not the same person
    ['ACME GmbH', 'Maria Schmidt'],
    ['Peter Schmidt', 'Maria Schmidt'],
    ['', 'Maria Schmidt'],
  ])('%s is a third party for %s', (payer, holder) => expect(payerNameMatches(payer, holder)).toBe(false));

  it('scores by the shorter name and honours the threshold', () => {
    expect(payerNameScore('Anna Maria Schmidt Weber', 'Maria Schmidt')).toBe(1);
    expect(payerNameScore('Anna Maria Schmidt', 'Anna Maria Lopez')).toBeCloseTo(2 / 3);
    expect(payerNameMatches('Anna Maria Schmidt', 'Anna Maria Lopez')).toBe(false);
    expect(payerNameMatches('Anna Maria Schmidt', 'Anna Maria Lopez', 0.6)).toBe(true);
  });

  it('holds third-party payments by default in production and warns in sandbox', () => {
    expect(defaultPayerNamePolicy('production')).toBe('HOLD');
    expect(defaultPayerNamePolicy('sandbox')).toBe('WARN');
  });
});
