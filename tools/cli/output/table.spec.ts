import { pageFooter, renderFields, renderTable } from './table';

describe('renderTable', () => {
  it('aligns columns under their headers and shows missing values as -', () => {
    expect(
      renderTable(
        ['ID', 'NAME', 'LAST'],
        [
          ['1', 'Ada', 200],
          ['22', null, ''],
        ],
      ),
    ).toBe(['ID  NAME  LAST', '1   Ada   200', '22  -     -', ''].join('\n'));
  });

  it('prints only the header for no rows', () => {
    expect(renderTable(['A', 'B'], [])).toBe('A  B\n');
  });
});

describe('renderFields', () => {
  it('aligns labels', () => {
    expect(
      renderFields([
        ['id', 'x'],
        ['merchantSecret', undefined],
      ]),
    ).toBe('id              x\nmerchantSecret  -\n');
  });
});

describe('pageFooter', () => {
  it('says which rows of how many were shown and whether there are more', () => {
    expect(pageFooter(2, 5, 0)).toBe('1-2 of 5 (more with --offset)\n');
    expect(pageFooter(1, 5, 4)).toBe('5-5 of 5\n');
    expect(pageFooter(0, 5, 10)).toBe('none at offset 10 of 5\n');
    expect(pageFooter(3, undefined, 0)).toBe('3 shown\n');
  });
});
