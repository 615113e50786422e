// The SEPA character set (EPC guidance): a-z A-Z 0-9 / - ? : ( ) . , ' + and space. Banks may
// reject anything else, so names with diacritics are transliterated before they leave us.
export function toSepaText(value: string, maxLength: number): string {
  const ascii = value
    .replace(/ß/g, 'ss')
    .replace(/[Ææ]/g, 'AE')
    .replace(/[Øø]/g, 'O')
    .replace(/[Łł]/g, 'L')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/&/g, '+')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return ascii.slice(0, maxLength).trim();
}

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
