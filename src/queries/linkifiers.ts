/** Reading linkifiers and code playgrounds: GET /realm/linkifiers and what POST /register reports of them. */
import { compiledLinkifiers, linkifierObject, playgroundObject } from '../domain/linkifiers.js';
import { topicLinks } from '../domain/markdown/index.js';
import type { QueueCapabilities } from '../events/event-queue.js';
import type { Services } from '../services.js';

/** The organization's linkifiers, in the order they apply. */
export function linkifiersState(services: Services) {
  return (services.org.realm.linkifiers ?? []).map(linkifierObject);
}

/**
 * Register's `realm_linkifiers` (empty unless the client reads URL templates, as Zulip's
 * `linkifier_url_template` capability says), the legacy `realm_filters` (always empty since
 * feature level 176) and `realm_playgrounds`.
 */
export function linkifierState(services: Services, want: (type: string) => boolean, capabilities: QueueCapabilities): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  if (want('realm_linkifiers')) state.realm_linkifiers = capabilities.linkifierUrlTemplate === true ? linkifiersState(services) : [];
  if (want('realm_filters')) state.realm_filters = [];
  if (want('realm_playgrounds')) state.realm_playgrounds = (services.org.realm.playgrounds ?? []).map(playgroundObject);
  return state;
}

// Topic links by topic, per realm record (replaced, never mutated, when its linkifiers change):
// a burst of messages to one topic matches the topic once. Bounded: cleared when full.
const topicLinkCache = new WeakMap<object, Map<string, readonly { text: string; url: string }[]>>();
const TOPIC_LINKS_KEPT = 1000;

/** A topic's `topic_links` with the organization's linkifiers of now (Zulip computes them when a message is read). */
export function topicLinksOf(services: Services, topic: string): { text: string; url: string }[] {
  const realm = services.org.realm;
  let cache = topicLinkCache.get(realm);
  if (cache === undefined) topicLinkCache.set(realm, (cache = new Map()));
  let links = cache.get(topic);
  if (links === undefined) {
    if (cache.size >= TOPIC_LINKS_KEPT) cache.clear();
    links = topicLinks(topic, compiledLinkifiers(realm.linkifiers));
    cache.set(topic, links);
  }
  return links.map((link) => ({ ...link }));
}
