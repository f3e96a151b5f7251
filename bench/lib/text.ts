/** Deterministic text for seeded and posted messages: a small random generator and sentences of chat words. */

/** A small deterministic generator (mulberry32), so every run searches the same text. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words of a chat about work, most frequent first; drawn with a Zipf-like law. */
export const VOCABULARY = (
  'the to and a of is in it for that on we this with be you have are not can will but so just at was if do ' +
  'deploy release build test server review meeting update issue team project client change fix bug data ' +
  'user page api queue message channel topic error report design plan week today tomorrow morning call ' +
  'merge branch commit ticket sprint backlog ready done working looks good thanks please check again ' +
  'latency database index cache memory disk network proxy config setting feature request response ' +
  'customer support ship launch docs draft notes slides budget hiring onboarding roadmap quarter goal ' +
  'metric dashboard alert incident outage rollback hotfix patch version upgrade migration schema backup'
).split(' ');

export function sentence(next: () => number, rare: boolean): string {
  const words: string[] = [];
  let length = 0;
  while (length < 95) {
    // Zipf-like: index ~ n^(u^2) skews towards the front of the vocabulary.
    const word = VOCABULARY[Math.floor(Math.pow(VOCABULARY.length, next() ** 1.6)) - 1] ?? 'ok';
    words.push(word);
    length += word.length + 1;
  }
  if (rare) words.splice(3, 0, 'zephyr', 'quokka');
  const text = words.join(' ');
  return text[0]!.toUpperCase() + text.slice(1) + '.';
}
