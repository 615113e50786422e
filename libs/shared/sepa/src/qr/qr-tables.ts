// ISO/IEC 18004 tables for error correction level M, versions 1-13: the EPC069-12 ("GiroCode")
// guidelines ask for level M, and version 13 holds exactly the 331 bytes an EPC payload may have.
export const MAX_VERSION = 13;

// Error correction codewords per block, and number of blocks, indexed by version (index 0 unused).
export const ECC_PER_BLOCK_M = [-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22];
export const BLOCKS_M = [-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9];

// Format information bits of level M (01 in the standard's order L=01, M=00, Q=11, H=10 is 00).
export const FORMAT_BITS_M = 0;

// Modules available for data and error correction (all but function patterns), per version.
export function rawDataModules(version: number): number {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    modules -= (25 * align - 10) * align - 55;
    if (version >= 7) modules -= 36;
  }
  return modules;
}

export function dataCodewords(version: number): number {
  return Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK_M[version]! * BLOCKS_M[version]!;
}

// Centre coordinates of the alignment patterns along each axis.
export function alignmentPositions(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const result = [6];
  for (let pos = size - 7; result.length < count; pos -= step) result.splice(1, 0, pos);
  return result;
}
