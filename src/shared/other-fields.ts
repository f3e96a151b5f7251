/**
 * Records rebuilt in a fixed shape (a literal with the fields this version knows) keep every other
 * field the stored one had: a field a newer or older version wrote is not lost when the record is
 * written again. Fields already on `shaped` are left as they are.
 */
export function withOtherFields<T extends object>(shaped: T, from: T): T {
  const into = shaped as Record<string, unknown>;
  const source = from as Record<string, unknown>;
  for (const key in source) if (!(key in into)) into[key] = source[key];
  return shaped;
}
