import { badRequest, ProblemException } from './problem.exception';

// Deeper than any request we define (the deepest is about 4): a 2,000-deep body would otherwise
// overflow the validation pipe's recursion and surface as a 500.
export const MAX_JSON_DEPTH = 32;

// C0 controls (NUL included: Postgres refuses it in text) and DEL. No field we accept is
// multi-line, so tab and newline are refused too.
export function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

// Iterative on purpose: the check must not itself overflow the stack on the input it guards against.
// Answers the first problem as a 400, or undefined when the value is fine.
export function inspectInput(value: unknown, where: 'body' | 'query' | 'path'): ProblemException | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; depth: number; path: string };
    if (typeof item.value === 'string') {
      if (hasControlCharacter(item.value)) {
        const field = item.path || where;
        return badRequest(`${where} contains a control character`, [
          { field, message: `${field} must not contain control characters (such as NUL)` },
        ]);
      }
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_JSON_DEPTH) {
      return badRequest(`the ${where} is nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    for (const [key, child] of Object.entries(item.value as Record<string, unknown>)) {
      const path = item.path ? `${item.path}.${key}` : key;
      if (hasControlCharacter(key)) {
        return badRequest(`${where} contains a control character in a field name`);
      }
      stack.push({ value: child, depth: item.depth + 1, path });
    }
  }
  return undefined;
}
