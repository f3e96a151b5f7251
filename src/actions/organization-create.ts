/**
 * Creating an organization, the one way there is: the realm with its system groups, its first
 * users (an owner, or the demo's people), the notification bot and its channels (`general`,
 * the default, unless told otherwise), written in one transaction. Used by the first start
 * (bootstrap.ts) and by `npm run cli -- create-organization`.
 */
import { badRequest } from '../domain/errors.js';
import { generatePassword, hashPassword, isLongEnoughPassword, PASSWORD_TOO_WEAK } from '../domain/credentials.js';
import { Role } from '../domain/roles.js';
import { subdomainRefusal } from '../domain/subdomain-rules.js';
import { isValidEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import type { Counters } from '../store/counters.js';
import type { Database } from '../store/database.js';
import { Organization } from '../store/organization.js';
import { Transaction } from '../store/transaction.js';
import { createAccount, createOrganization } from './accounts.js';
import { setOrganizationProfile } from './organization-profile.js';
import { createChannel, subscribeUsers } from './subscriptions.js';

export interface FirstUser {
  email: string;
  fullName: string;
  role: Role;
  /** A random one is made (and returned) when absent. */
  password?: string;
}

export interface ChannelSpec {
  name: string;
  description: string;
  inviteOnly: boolean;
  isDefault: boolean;
  /** Emails of the first users subscribed. */
  subscribers: readonly string[];
  /** This channel receives the moderation requests (the realm's moderation_request_channel_id). */
  moderationRequests?: boolean;
}

export interface OrganizationSpec {
  /** '' for the root organization (made at the first start only). */
  subdomain: string;
  name: string;
  description?: string;
  /** The server's root URL (PARLEY_EXTERNAL_URL): the organization's own is made from it and the subdomain. */
  rootUrl: string;
  nowMs: number;
  users: readonly FirstUser[];
  /** The notification bot's address; by default at the first user's domain. */
  botEmail?: string;
  /** By default `general`, the default channel, with every first user in it. */
  channels?: readonly ChannelSpec[];
}

/**
 * Builds (or starts) an organization's services and runs `seed` on them before anything else
 * uses them: the server's registry (organizations.ts `start`), or a plain build for the CLI.
 */
export type StartOrganization = (org: Organization, seed?: (services: Services) => Promise<void>) => Promise<Services>;

export interface CreatedOrganization {
  org: Organization;
  /** The organization's services, from the caller's `start` (the caller closes them or keeps them). */
  services: Services;
  /** The first users with the password each was given. */
  users: { user: UserRecord; password: string }[];
}

export const NOTIFICATION_BOT_NAME = 'Notification Bot';

/** The channel every new organization starts with (as Zulip's `general`, where new users land). */
export function generalChannel(subscribers: readonly string[]): ChannelSpec {
  return { name: 'general', description: 'For team-wide conversations', inviteOnly: false, isDefault: true, subscribers };
}

/**
 * Refuses what cannot make an organization, before anything is written: a subdomain Zulip would
 * refuse or another organization holds, a name out of Zulip's limits, a bad first user.
 */
export async function checkOrganizationSpec(db: Database, spec: OrganizationSpec, root: boolean): Promise<void> {
  const taken = (await Organization.idBySubdomain(db, spec.subdomain)) !== undefined;
  if (!root) {
    const refusal = subdomainRefusal(spec.subdomain, taken);
    if (refusal) throw badRequest(refusal);
  } else if (taken) {
    throw badRequest('The root organization exists already.');
  }
  if (spec.users.length === 0) throw badRequest('An organization needs an owner.');
  for (const user of spec.users) {
    if (!isValidEmail(user.email)) throw badRequest(`Invalid address: ${user.email}`);
    if (user.password !== undefined && !isLongEnoughPassword(user.password)) throw badRequest(PASSWORD_TOO_WEAK);
  }
}

/**
 * Creates the organization after `checkOrganizationSpec`; `start` gives the services the
 * channels are made through (wiring.ts's buildServices: actions cannot reach it). One write:
 * a failure leaves nothing behind.
 */
export async function createNewOrganization(counters: Counters, spec: OrganizationSpec, start: StartOrganization): Promise<CreatedOrganization> {
  const passwords = spec.users.map((user) => user.password ?? generatePassword());
  // Hash in parallel (scrypt runs on the thread pool), then create in order so ids follow the list.
  const hashes = await Promise.all(passwords.map((password) => hashPassword(password)));
  const tx = new Transaction();
  const org = createOrganization(counters, tx, { name: spec.name, description: spec.description, subdomain: spec.subdomain, rootUrl: spec.rootUrl, nowMs: spec.nowMs });
  // Zulip's limits on the name and description (a refusal here writes nothing: tx is dropped).
  setOrganizationProfile(org, tx, { name: spec.name, description: spec.description });
  const users = spec.users.map((first, i) => ({
    user: createAccount(org, counters, tx, { email: first.email, fullName: first.fullName, role: first.role, passwordHash: hashes[i]!, nowMs: spec.nowMs }),
    password: passwords[i]!,
  }));
  createAccount(org, counters, tx, {
    email: spec.botEmail ?? `notification-bot@${spec.users[0]!.email.split('@')[1]}`,
    passwordHash: null,
    fullName: NOTIFICATION_BOT_NAME,
    role: Role.MEMBER,
    isBot: true,
    botType: 1,
    isSystemBot: true,
    nowMs: spec.nowMs,
  });
  const services = await start(org, async (services) => {
    seedChannels(services, tx, spec.channels ?? [generalChannel(spec.users.map((user) => user.email))]);
    await services.commit(tx);
  });
  return { org, services, users };
}

function seedChannels(services: Services, tx: Transaction, channels: readonly ChannelSpec[]): void {
  const { org } = services;
  for (const spec of channels) {
    const channel = createChannel(services, tx, { name: spec.name, description: spec.description, inviteOnly: spec.inviteOnly, isDefault: spec.isDefault, creatorId: null });
    subscribeUsers(services, tx, spec.subscribers.map((email) => org.users.byEmail(email)!), [channel]);
    if (spec.moderationRequests) {
      org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, moderation_request_channel_id: channel.id } }, tx);
    }
  }
}
