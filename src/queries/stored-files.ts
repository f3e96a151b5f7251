/**
 * Which stored files something still uses: uploads' attachments and custom emoji (images and
 * stills) share the content-addressed file store, so a file goes only when neither holds it.
 */
import type { Services } from '../services.js';

/** Does an attachment or a custom emoji still use the file stored under this hash? */
export function fileInUse(services: Services, sha: string): boolean {
  return services.attachments.usesSha(sha) || services.realmEmoji.usesSha(sha);
}

/** Every hash in use (for the start-up sweep of files a crash left behind). */
export function filesInUse(services: Services): Set<string> {
  return new Set([...services.attachments.hashes(), ...services.realmEmoji.hashes()]);
}
