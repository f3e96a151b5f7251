/**
 * First start: on an empty data directory, create the organization — the demo one with
 * PARLEY_DEMO=1, otherwise an empty one with an owner whose credentials are printed once.
 * Later starts load the organization that is there.
 */
import type { Config } from './config.js';
import { createAccount, createOrganization } from './actions/accounts.js';
import { generatePassword, hashPassword } from './domain/credentials.js';
import { Role } from './domain/roles.js';
import { DEMO_CHANNELS, DEMO_ORGANIZATION_DESCRIPTION, DEMO_ORGANIZATION_NAME, DEMO_PASSWORD, DEMO_USERS, NOTIFICATION_BOT } from './demo-organization.js';
import { createChannel, subscribeUsers } from './actions/subscriptions.js';
import type { Services } from './services.js';
import type { Counters } from './store/counters.js';
import type { Database } from './store/database.js';
import { Organization } from './store/organization.js';
import { Transaction } from './store/transaction.js';

export interface Bootstrapped {
  org: Organization;
  /** A new organization's writes, not yet committed: `seedOrganization` adds its channels first. */
  pending?: Transaction;
  demo: boolean;
}

export async function loadOrCreateOrganization(
  db: Database,
  counters: Counters,
  config: Config,
  nowMs: number,
  print: (line: string) => void,
): Promise<Bootstrapped> {
  // The root organization; a server whose organizations all have subdomains starts the first of them.
  const existing = (await Organization.idBySubdomain(db, '')) ?? (await Organization.firstId(db));
  if (existing !== undefined) {
    const org = await Organization.load(db, existing, config.externalUrl);
    if (!org) throw new Error(`organization ${existing} is listed but its record is missing`);
    if (config.demo) print(`PARLEY_DEMO=1 is ignored: ${config.dataDir} already holds the organization '${org.realm.name}' (the demo is created only in an empty data directory).`);
    return { org, demo: false };
  }
  const tx = new Transaction();
  if (config.demo) {
    const org = createOrganization(counters, tx, { name: DEMO_ORGANIZATION_NAME, description: DEMO_ORGANIZATION_DESCRIPTION, rootUrl: config.externalUrl, nowMs });
    // Hash in parallel (scrypt runs on the thread pool), then create in order so ids follow the list.
    const hashes = await Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD)));
    for (const [i, u] of DEMO_USERS.entries()) {
      createAccount(org, counters, tx, { email: u.email, fullName: u.fullName, role: u.role, passwordHash: hashes[i]!, nowMs });
    }
    createAccount(org, counters, tx, {
      email: NOTIFICATION_BOT.email,
      passwordHash: null,
      fullName: NOTIFICATION_BOT.fullName,
      role: Role.MEMBER,
      isBot: true,
      botType: 1,
      isSystemBot: true,
      nowMs,
    });
    print(`Created the demo organization '${DEMO_ORGANIZATION_NAME}'; every user's password is '${DEMO_PASSWORD}'.`);
    return { org, pending: tx, demo: true };
  }
  const org = createOrganization(counters, tx, { name: 'Parley', rootUrl: config.externalUrl, nowMs });
  const password = generatePassword();
  // A host name that can stand in an email address, or the reserved example domain.
  const domain = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(org.host) ? org.host : 'example.com';
  const ownerEmail = `owner@${domain}`;
  const owner = createAccount(org, counters, tx, { email: ownerEmail, fullName: 'Owner', role: Role.OWNER, passwordHash: await hashPassword(password), nowMs });
  createAccount(org, counters, tx, {
    passwordHash: null,
    email: `notification-bot@${ownerEmail.split('@')[1]}`,
    fullName: NOTIFICATION_BOT.fullName,
    role: Role.MEMBER,
    isBot: true,
    botType: 1,
    isSystemBot: true,
    nowMs,
  });
  print('Created a new organization. Its owner (shown only this once):');
  print(`  email:    ${owner.deliveryEmail}`);
  print(`  password: ${password}`);
  print(`  API key:  ${owner.apiKey}`);
  return { org, pending: tx, demo: false };
}

/** Channels of a new organization: the demo's, or a `general` default channel for the owner. */
export function seedOrganization(services: Services, tx: Transaction, demo: boolean): void {
  const { org } = services;
  const channels = demo
    ? DEMO_CHANNELS
    : [{ name: 'general', description: 'For team-wide conversations', inviteOnly: false, isDefault: true, subscribers: [...org.users.all()].filter((u) => !u.isBot).map((u) => u.deliveryEmail) }];
  for (const spec of channels) {
    const channel = createChannel(services, tx, { name: spec.name, description: spec.description, inviteOnly: spec.inviteOnly, isDefault: spec.isDefault, creatorId: null });
    const users = spec.subscribers.map((email) => org.users.byEmail(email)!);
    subscribeUsers(services, tx, users, [channel]);
    if (demo && spec.name === 'moderation') {
      org.saveRealm({ ...org.realm, settings: { ...org.realm.settings, moderation_request_channel_id: channel.id } }, tx);
    }
  }
}
