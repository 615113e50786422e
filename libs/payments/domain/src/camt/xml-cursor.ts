import { CamtParseError } from './bank-statement';

// A parsed XML element as fast-xml-parser gives it (attributes "@_x", text "#text"), walked with
// the path kept, so every error says which element broke.
export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [name: string]: XmlValue;
}

export class XmlCursor {
  constructor(
    readonly value: XmlValue | undefined,
    readonly path: string,
  ) {}

  get exists(): boolean {
    return this.value !== undefined;
  }

  // The child element (the first one when repeated), absent ones give a cursor on undefined.
  child(name: string): XmlCursor {
    const here = this.object();
    const found = here?.[name];
    if (Array.isArray(found)) return new XmlCursor(found[0], `${this.path}/${name}[0]`);
    return new XmlCursor(found, `${this.path}/${name}`);
  }

  // Follows several names: at('Refs', 'EndToEndId').
  at(...names: string[]): XmlCursor {
    return names.reduce<XmlCursor>((cursor, name) => cursor.child(name), this);
  }

  children(name: string): XmlCursor[] {
    const found = this.object()?.[name];
    if (found === undefined) return [];
    const list = Array.isArray(found) ? found : [found];
    return list.map((value, i) => new XmlCursor(value, `${this.path}/${name}[${i}]`));
  }

  // Element text, trimmed; null when absent or empty.
  text(): string | null {
    const v = this.value;
    if (v === undefined) return null;
    if (typeof v === 'string') return v.trim() || null;
    if (Array.isArray(v)) return new XmlCursor(v[0], this.path).text();
    const inner = v['#text'];
    return typeof inner === 'string' ? inner.trim() || null : null;
  }

  requiredText(): string {
    const t = this.text();
    if (t === null) throw new CamtParseError('missing required element', this.path);
    return t;
  }

  attribute(name: string): string | null {
    const v = this.object()?.[`@_${name}`];
    return typeof v === 'string' ? v.trim() || null : null;
  }

  fail(message: string): never {
    throw new CamtParseError(message, this.path);
  }

  private object(): XmlObject | undefined {
    const v = Array.isArray(this.value) ? this.value[0] : this.value;
    return v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  }
}
