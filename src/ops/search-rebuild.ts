/**
 * Rebuilding the full-text index from the store (`npm run cli -- search-index --rebuild`): the
 * index is derived data, so a new one is made from every stored message, in id order.
 */
import type { Services } from '../services.js';
import { removeSearchIndex, SearchIndex, searchIndexDir } from '../store/search-index.js';

/** Replaces the organization's index with a new one made from the store; returns it open. */
export async function rebuildSearchIndex(services: Services, progress: (done: number) => void): Promise<SearchIndex> {
  const dir = searchIndexDir(services.config.dataDir);
  await services.search.close();
  removeSearchIndex(dir, services.org.id);
  const index = SearchIndex.open(dir, services.db, services.messages, services.org.id, (error) => services.logger.error({ err: error }, 'search index failed'));
  await index.catchUp(progress);
  return index;
}
