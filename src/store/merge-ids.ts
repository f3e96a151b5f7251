/** Merging id walks: the union of several index ranges, walked in id order. */

/** Merges ascending (or descending) id walks into one, each id once. */
export async function* mergeIds(walks: AsyncGenerator<number>[], reverse: boolean): AsyncGenerator<number> {
  if (walks.length === 1) return yield* walks[0]!;
  const heads: (number | undefined)[] = await Promise.all(walks.map(async (walk) => (await walk.next()).value as number | undefined));
  try {
    for (;;) {
      let best: number | undefined;
      for (const head of heads) if (head !== undefined && (best === undefined || (reverse ? head > best : head < best))) best = head;
      if (best === undefined) return;
      yield best;
      for (let i = 0; i < heads.length; i++) {
        if (heads[i] === best) heads[i] = (await walks[i]!.next()).value as number | undefined;
      }
    }
  } finally {
    await Promise.all(walks.map((walk) => walk.return(undefined)));
  }
}
