import { extractRfReferences } from '@onramp/sepa';

// Payers copy references by hand: the letter O for a zero in the check digits ("RFO7") or in the
// body. Every reading is still checksummed, so a tolerant reading can never invent a reference:
// it only recovers one the checksum confirms.
export function readRfReferences(text: string): string[] {
  const found: string[] = [];
  const add = (refs: string[]): void => refs.forEach((r) => found.includes(r) || found.push(r));
  add(extractRfReferences(text));
  // the two check digits right after "RF" are always digits
  const digitsFixed = text.replace(
    /\b(r\s*f\s*)([0-9oO]\s*[0-9oO])/gi,
    (_, prefix: string, digits: string) => {
      return prefix + digits.replace(/[oO]/g, '0');
    },
  );
  add(extractRfReferences(digitsFixed));
  // a body that was written with O for 0 throughout (our generated bodies have neither)
  add(extractRfReferences(digitsFixed.replace(/(?<=r\s*f\s*\d\s*\d[0-9a-z\s]*)[oO]/gi, '0')));
  return found;
}

// Every RF reference a credit may be paying, most explicit place first: the structured creditor
// reference, then the free text, then the end-to-end id.
export function creditReferenceCandidates(places: {
  structured?: readonly string[];
  unstructured?: string | null;
  endToEndId?: string | null;
}): string[] {
  const found: string[] = [];
  const texts = [...(places.structured ?? []), places.unstructured ?? '', places.endToEndId ?? ''];
  for (const text of texts)
    for (const ref of readRfReferences(text)) if (!found.includes(ref)) found.push(ref);
  return found;
}
