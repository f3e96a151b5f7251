/**
 * Which subdomains a new organization may take: Zulip's rules (zerver/forms.py
 * check_subdomain_available, zerver/lib/name_restrictions.py is_reserved_subdomain) — lowercase
 * letters, digits and inner hyphens, 3 to 40 characters, not a reserved name (nor its plural).
 * Whether the name is already taken is the store's to say; the caller asks it.
 */

/** Zulip's Realm.MAX_REALM_SUBDOMAIN_LENGTH. */
export const MAX_SUBDOMAIN_LENGTH = 40;
export const MIN_SUBDOMAIN_LENGTH = 3;

/** Zulip's messages, word for word (the operator sees them from the CLI). */
export const SUBDOMAIN_ERRORS = {
  tooShort: `Subdomain needs to have length ${MIN_SUBDOMAIN_LENGTH} or greater.`,
  tooLong: `Subdomain can be at most ${MAX_SUBDOMAIN_LENGTH} characters long.`,
  extremalDash: "Subdomain cannot start or end with a '-'.",
  badCharacter: "Subdomain can only have lowercase letters, numbers, and '-'s.",
  unavailable: 'Subdomain unavailable. Please choose a different one.',
} as const;

/**
 * Names that would confuse users or collide with a service's own host names: Zulip's two lists
 * (its product words and machines, and the generic names of web services), kept here as one.
 */
const RESERVED = new Set(
  (
    // Zulip's product words, machines, pages, platforms, programs and security-sounding names.
    'stream channel topic thread installation organization your-org realm team subdomain activity octopus acme push ' +
    'zulipdev localhost staging prod production testing nagios nginx mg front-mail ' +
    'server client features integration bot blog history story stories testimonial compare for vs ' +
    'slack mattermost rocketchat irc twitter zephyr flowdock spark skype microsoft twist ryver matrix discord email usenet ' +
    'zulip tulip humbug parley plan9 electron linux mac windows cli ubuntu android ios ' +
    'contribute floss foss free opensource open code license intern outreachy gsoc externship ' +
    'auth authentication security engineering infrastructure tooling tools javascript python ' +
    // Generic names (Zulip's GENERIC_RESERVED_SUBDOMAINS).
    'about abuse account ad admanager admin admindashboard administrator adsense advice adword affiliate alpha anonymous ' +
    'api assets audio avatar badges beta billing biz board bookmark bugs buy cache calendar chat clients cname comment ' +
    'communities community contact contributor control coppa copyright cpanel css cssproxy customer customise customize ' +
    'dashboard data demo deploy deployment desktop dev devel developer development discussion diversity dmca docs donate ' +
    'download e-mail embed embedded example explore faq favorite favourites feed feedback files forum friend ftp general ' +
    'gettingstarted gift git global graphs guide hack hello help home hostmaster https icon im image img inbox index ' +
    'investors invite invoice ipad iphone jabber jars jobs join js kb knowledgebase launchpad legal livejournal lj login ' +
    'logs m mail main manage map media memories memory merchandise messages mobile my mystore networks new newsite ' +
    'onboarding official ogg online order paid panel partner partnerpage pay payment picture policy pop popular portal post ' +
    'postmaster press pricing principles privacy private profile public question random redirect register registration ' +
    'resolver root rss s sandbox school search secure servers service setting shop shortcuts signin signup sitemap sitenews ' +
    'sites sms smtp sorry ssl staff stage stars stat static statistics status store style support surveys svn syn ' +
    'syndicated system tag talk termsofservice test testers ticket tool tos trac translate update upgrade uploads use user ' +
    'username validation videos volunteer web webdisk webmail webmaster welcome whm whois wiki www www0 www8 www9 xml xmpp xoxo'
  ).split(' '),
);

/** Whether a name is reserved, as Zulip decides: listed, or a listed name with an `s` added. */
export function isReservedSubdomain(subdomain: string): boolean {
  return RESERVED.has(subdomain) || (subdomain.endsWith('s') && RESERVED.has(subdomain.slice(0, -1)));
}

/**
 * Why `subdomain` cannot name a new organization, or undefined when it may (`taken` says whether
 * another organization has it). The root organization's empty subdomain is never available: a
 * server has exactly one, made at its first start.
 */
export function subdomainRefusal(subdomain: string, taken: boolean): string | undefined {
  if (subdomain === '') return SUBDOMAIN_ERRORS.unavailable;
  if (subdomain.startsWith('-') || subdomain.endsWith('-')) return SUBDOMAIN_ERRORS.extremalDash;
  if (!/^[a-z0-9-]*$/.test(subdomain)) return SUBDOMAIN_ERRORS.badCharacter;
  if (subdomain.length < MIN_SUBDOMAIN_LENGTH) return SUBDOMAIN_ERRORS.tooShort;
  // Zulip's form field limits the length before these checks; a DNS label holds at most 63.
  if (subdomain.length > MAX_SUBDOMAIN_LENGTH) return SUBDOMAIN_ERRORS.tooLong;
  if (taken || isReservedSubdomain(subdomain)) return SUBDOMAIN_ERRORS.unavailable;
  return undefined;
}
