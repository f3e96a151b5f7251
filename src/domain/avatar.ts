/** Avatar URLs: Gravatar by default, computed from the email's hash as Zulip does. */
import { createHash } from 'node:crypto';

export type AvatarSource = 'G' | 'U';

export function gravatarHash(email: string): string {
  return createHash('md5').update(email.trim().toLowerCase()).digest('hex');
}

const hashes = new Map<string, string>();

/** Hashing is the costly part of a message's avatar URL; senders repeat, so hashes are remembered. */
export function gravatarUrl(email: string, version: number): string {
  let hash = hashes.get(email);
  if (hash === undefined) {
    hash = gravatarHash(email);
    if (hashes.size > 100_000) hashes.clear();
    hashes.set(email, hash);
  }
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${version}`;
}

/**
 * The `avatar_url` a requester sees. With `client_gravatar` the client computes Gravatar URLs
 * itself, so the server sends null, but only for users whose real email is public.
 */
export function avatarUrlFor(
  user: { deliveryEmail: string; avatarSource: AvatarSource; avatarVersion: number; id: number },
  options: { clientGravatar: boolean; emailIsPublic: boolean; realmUrl: string },
): string | null {
  if (user.avatarSource === 'G') {
    if (options.clientGravatar && options.emailIsPublic) return null;
    return gravatarUrl(user.deliveryEmail, user.avatarVersion);
  }
  return `${options.realmUrl}/user_avatars/${user.id}.png?version=${user.avatarVersion}`;
}
