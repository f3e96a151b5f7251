/**
 * Administration from the command line (`npm run cli -- <command>`), on the data directory
 * of PARLEY_DATA_DIR. The server must be stopped (LevelDB allows one process at a time),
 * except for `backup`, which asks a running server through its control socket.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { changeRole, createAccount, regenerateApiKey, setPassword } from './actions/accounts.js';
import { loadOrCreateOrganization, seedOrganization } from './bootstrap.js';
import { subscribeUsers } from './actions/subscriptions.js';
import { buildServices } from './wiring.js';
import { rebuildSearchIndex } from './ops/search-rebuild.js';
import type { Services } from './services.js';
import { pino } from 'pino';
import { configFromEnv, type Config } from './config.js';
import { generatePassword, hashPassword, isLongEnoughPassword, MIN_PASSWORD_LENGTH, PASSWORD_TOO_WEAK } from './domain/credentials.js';
import { checkNewUser } from './actions/users.js';
import { setOrganizationProfile } from './actions/organization-profile.js';
import { Organization } from './store/organization.js';
import { Role } from './domain/roles.js';
import { ControlUnavailable, requestBackup } from './ops/control.js';
import { writeBackup, type BackupResult } from './store/backup.js';
import { UPLOADS_DIR } from './store/backup-files.js';
import { FileStore } from './store/files.js';
import { Counters } from './store/counters.js';
import { Database } from './store/database.js';
import { Transaction } from './store/transaction.js';

const ROLE_NAMES: Record<string, Role> = {
  owner: Role.OWNER,
  administrator: Role.ADMINISTRATOR,
  admin: Role.ADMINISTRATOR,
  moderator: Role.MODERATOR,
  member: Role.MEMBER,
  guest: Role.GUEST,
};

/** Zulip's special permission that `new_email` in PATCH /users/{id} needs (with the owner role). */
const SPECIAL_PERMISSION = 'can_change_user_emails';

const USAGE = `usage: npm run cli -- <command> [options]

commands:
  init [--demo]                                   create the organization if the data directory is empty
  create-user --email E --name N [--role R] [--password P]
                                                  add a user (role: owner, administrator, moderator, member, guest)
  change-role --email E --role R [--revoke]       change a user's role, or grant (take away with --revoke) the
                                                  special permission can_change_user_emails (--role can_change_user_emails)
  reset-password --email E [--password P]         set a new password (a random one is printed if not given)
  api-key --email E [--regenerate]                print (or replace) a user's API key
  list-users                                      list every user and bot
  outbox                                          print the mail kept because no SMTP server is configured
  organization [--name N] [--description D]       show the organization's name and description, or change them
  search-index [--rebuild]                        report the full-text index; --rebuild makes it anew from the store
  backup <dir>                                    write a consistent copy of the data and the uploaded files to
                                                  <dir> (new or empty), through the running server if there is one

environment: PARLEY_DATA_DIR (default ./data), PARLEY_EXTERNAL_URL (see README.md for SMTP)`;

const print = (line: string) => process.stdout.write(line + '\n');

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** Runs a rule check; an ApiError (or any error) it throws ends the command with its message. */
function refusedAs<T>(command: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    fail(`${command} refused: ${(error as Error).message}`);
  }
}

function roleOf(name: string | undefined): Role {
  const role = ROLE_NAMES[(name ?? 'member').toLowerCase()];
  if (role === undefined) fail(`unknown role '${name}'`);
  return role;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      demo: { type: 'boolean' },
      regenerate: { type: 'boolean' },
      rebuild: { type: 'boolean' },
      revoke: { type: 'boolean' },
      description: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (!command || values.help) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  let config: Config;
  try {
    config = configFromEnv({ ...process.env, ...(values.demo ? { PARLEY_DEMO: '1' } : {}) });
  } catch (error) {
    fail((error as Error).message);
  }
  if (command === 'backup') return backup(config.dataDir, positionals[1]);
  const { db, org, services, counters } = await openOrganization(config, command);
  const tx = new Transaction();
  await runCommand(command, values, { config, org, services, counters }, tx);
  if (!tx.isEmpty) await services.commit(tx);
  await services.search.close();
  await db.close();
}

/**
 * Opens the data directory and its organization, refusing (and creating nothing) when there is
 * none: only `init` creates one, so a mistyped directory never gets a new organization.
 */
async function openOrganization(config: Config, command: string) {
  const where = `${resolve(config.dataDir)} (PARLEY_DATA_DIR)`;
  const noOrganization = `no organization in ${where}: check the path, or create one with 'init' (or by starting the server there)`;
  if (command !== 'init' && !existsSync(join(config.dataDir, 'CURRENT'))) fail(noOrganization);
  let db: Database;
  try {
    db = await Database.open(config.dataDir, { sync: true });
  } catch (error) {
    // The message names the directory and why (locked by a running server, not writable).
    fail(`cannot open the data directory ${(error as Error).message}`);
  }
  if (command !== 'init' && (await Organization.firstId(db)) === undefined) {
    await db.close();
    fail(noOrganization);
  }
  const counters = new Counters(db);
  const { org, pending, demo } = await loadOrCreateOrganization(db, counters, config, Date.now(), print);
  const logger = pino({ level: 'warn' }, pino.destination(2));
  const services = await buildServices({ config, logger, db, counters, org, clock: { now: () => Date.now() } });
  if (pending) {
    seedOrganization(services, pending, demo);
    await services.commit(pending);
  }
  return { db, org, services, counters };
}

interface Values {
  email?: string;
  name?: string;
  role?: string;
  password?: string;
  demo?: boolean;
  regenerate?: boolean;
  rebuild?: boolean;
  revoke?: boolean;
  description?: string;
}
interface Session {
  config: Config;
  org: Organization;
  services: Awaited<ReturnType<typeof buildServices>>;
  counters: Counters;
}

/** One admin command; its writes go into `tx`, committed by the caller. */
async function runCommand(command: string, values: Values, { config, org, services, counters }: Session, tx: Transaction): Promise<void> {
  const userByEmail = () => {
    if (!values.email) fail('--email is required');
    const user = org.users.byEmail(values.email);
    if (!user) fail(`no user with email ${values.email}`);
    return user;
  };
  switch (command) {
    case 'init':
      print(`organization '${org.realm.name}' is ready in ${config.dataDir}`);
      break;
    case 'create-user': {
      if (!values.email || !values.name) fail('--email and --name are required');
      // The API's rules (POST /users): address syntax, a free address, the name, the password minimum.
      const { email, fullName } = refusedAs('create-user', () => checkNewUser(org, { email: values.email!, fullName: values.name!, password: values.password }));
      const password = values.password ?? generatePassword();
      const passwordHash = await hashPassword(password);
      const user = createAccount(org, counters, tx, { email, fullName, role: roleOf(values.role), passwordHash, nowMs: Date.now() });
      subscribeUsers(services, tx, [user], [...org.channels.all()].filter((channel) => channel.isDefault));
      print(`created user ${user.id} ${user.deliveryEmail}`);
      if (!values.password) print(`password: ${password}`);
      print(`API key:  ${user.apiKey}`);
      break;
    }
    case 'change-role': {
      const user = userByEmail();
      if (!values.role) fail('--role is required');
      if (values.role === SPECIAL_PERMISSION) {
        org.users.save({ ...user, canChangeUserEmails: !values.revoke }, tx);
        print(`${user.deliveryEmail} ${values.revoke ? 'no longer has' : 'now has'} ${SPECIAL_PERMISSION}`);
        break;
      }
      const role = roleOf(values.role);
      if (user.role === Role.OWNER && role !== Role.OWNER && [...org.users.all()].filter((u) => u.isActive && u.role === Role.OWNER).length <= 1) {
        fail('the owner role cannot be removed from the only organization owner');
      }
      changeRole(org, tx, user, role);
      print(`${user.deliveryEmail} is now ${values.role}`);
      break;
    }
    case 'reset-password': {
      if (values.password !== undefined && !isLongEnoughPassword(values.password)) fail(`reset-password refused: ${PASSWORD_TOO_WEAK} (at least ${MIN_PASSWORD_LENGTH} characters)`);
      const password = values.password ?? generatePassword();
      const user = await setPassword(org, tx, userByEmail(), password);
      print(`new password for ${user.deliveryEmail}: ${password}`);
      break;
    }
    case 'api-key': {
      let user = userByEmail();
      if (values.regenerate) user = regenerateApiKey(org, tx, user);
      print(user.apiKey);
      break;
    }
    case 'organization': {
      const realm = refusedAs('organization', () => setOrganizationProfile(org, tx, { name: values.name, description: values.description }));
      print(`name: ${realm.name}`);
      print(`description: ${realm.description}`);
      break;
    }
    case 'list-users':
      for (const user of org.users.all()) {
        const kind = user.isBot ? 'bot' : (Object.entries(ROLE_NAMES).find(([, r]) => r === user.role)?.[0] ?? String(user.role));
        print(`${user.id}\t${user.deliveryEmail}\t${user.fullName}\t${kind}${user.isActive ? '' : '\t(deactivated)'}`);
      }
      break;
    case 'outbox':
      await printOutbox(services);
      break;
    case 'search-index':
      await searchIndex(services, Boolean(values.rebuild), print);
      break;
    default:
      fail(`unknown command '${command}'\n\n${USAGE}`);
  }
}

/** The mail kept in the store because no SMTP server is configured, links included. */
async function printOutbox(services: Session['services']): Promise<void> {
  const mails = await services.outbox.list();
  for (const mail of mails) {
    print(`--- mail ${mail.id}, queued ${new Date(mail.queuedAt * 1000).toISOString()}`);
    print(`From: ${mail.from}`);
    print(`To: ${mail.to}`);
    print(`Subject: ${mail.subject}`);
    print('');
    print(mail.text);
    print('');
  }
  print(`${mails.length} mail${mails.length === 1 ? '' : 's'} in the outbox${services.smtp ? ' (SMTP is configured: new mail is sent, not kept here)' : ''}`);
}

/** The search index's state, or (`--rebuild`) a new index made from every stored message, with a progress bar. */
async function searchIndex(services: Services, rebuild: boolean, print: (line: string) => void): Promise<void> {
  const total = await services.messages.count();
  if (!rebuild) {
    print(`search index: ${services.search.size()} messages indexed through id ${services.search.indexedThrough}; ${total} messages stored`);
    return;
  }
  const started = performance.now();
  const index = await rebuildSearchIndex(services, (done) => {
    const width = 40;
    const filled = total ? Math.round((done / total) * width) : width;
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  });
  process.stderr.write('\n');
  const seconds = (performance.now() - started) / 1000;
  print(`search index rebuilt: ${index.size()} messages in ${seconds.toFixed(1)} s (${Math.round(index.size() / Math.max(seconds, 0.001))} messages/s)`);
  await index.close();
}

/** Asks the running server for the backup; without one, reads the data directory itself. */
async function backup(dataDir: string, dir: string | undefined): Promise<void> {
  if (!dir) fail('usage: npm run cli -- backup <dir>');
  let result: BackupResult;
  let via = 'the running server';
  try {
    result = await requestBackup(dataDir, dir);
  } catch (error) {
    if (!(error instanceof ControlUnavailable)) fail(`backup failed: ${(error as Error).message}`);
    if (!existsSync(join(dataDir, 'CURRENT'))) fail(`no database in ${dataDir}`);
    let db: Database;
    try {
      db = await Database.open(dataDir, { sync: true });
    } catch (openError) {
      fail(`cannot open ${dataDir}, and no server answers on its control socket: ${(openError as Error).message}`);
    }
    via = 'the data directory (no server running)';
    try {
      result = await writeBackup(db, dir, new FileStore(join(dataDir, UPLOADS_DIR)));
    } catch (backupError) {
      fail(`backup failed: ${(backupError as Error).message}`);
    } finally {
      await db.close();
    }
  }
  process.stdout.write(
    `backup of ${dataDir} written to ${result.dir} from ${via}: ${result.entries} entries ` +
      `(${result.omitted} of event queues left out) and ${result.files} uploaded file${result.files === 1 ? '' : 's'} ` +
      `(${((result.bytes + result.fileBytes) / 1048576).toFixed(1)} MiB) in ${result.seconds.toFixed(2)} s\n`,
  );
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
