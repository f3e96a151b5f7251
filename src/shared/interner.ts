/**
 * One copy of each string among a few that repeat across many records (client names, colours):
 * strings decoded from the store are each their own object otherwise, and every major garbage
 * collection marks them all. Bounded, so that unusual values cannot grow it; past the bound a
 * string is returned as it came.
 */
export class Interner {
  private readonly known = new Map<string, string>();

  constructor(private readonly max: number) {}

  get(value: string): string {
    const known = this.known.get(value);
    if (known !== undefined) return known;
    if (this.known.size < this.max) this.known.set(value, value);
    return value;
  }
}
