/**
 * Administration from the command line (`npm run cli -- <command>`), on the data directory of
 * PARLEY_DATA_DIR. The organization commands (create, list, deactivate) and `backup` go to the
 * running server through its control socket (it holds LevelDB's lock), or, with no server
 * running, open the data directory themselves; the others need the server stopped.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { HostParts } from './admin-hosts.js';
import { configFromEnv, type Config } from './config.js';
import { ControlUnavailable, requestBackup, requestCommand } from './ops/control.js';
import type { AdminOptions } from './organization-admin.js';
import { isOrganizationCommand, type OrganizationCommand } from './domain/organization-commands.js';
import type { Values } from './cli-commands.js';
import type { BackupResult } from './store/backup.js';
import type { Database } from './store/database.js';

// What works on a stopped server's data (the store, the organizations' services) is imported by
// the commands that need it: a command the running server carries out loads a third as much.
const loadStore = async () => {
  const [hosts, bootstrap, commands, admin, files, counters, database, organization, restore, transaction, { pino }] = await Promise.all([
    import('./admin-hosts.js'), import('./bootstrap.js'), import('./cli-commands.js'), import('./organization-admin.js'),
    import('./store/backup-files.js'), import('./store/counters.js'), import('./store/database.js'), import('./store/organization.js'),
    import('./store/restore.js'), import('./store/transaction.js'), import('pino'),
  ]);
  return { ...hosts, ...bootstrap, ...commands, ...admin, ...files, ...counters, ...database, ...organization, ...restore, ...transaction, pino };
};

const USAGE = `usage: npm run cli -- <command> [options]

organizations (through the running server if there is one):
  create-organization --subdomain S --name N --owner-email E [--owner-name N] [--password P] [--description D]
                                                  create an organization at S.<root host>; prints its owner's credentials
  list-organizations                              id, subdomain, URL, name, active users and state of each organization
  deactivate-organization --organization S        deactivate an organization (its users are refused, as Zulip's)
  reactivate-organization --organization S        make it active again
  backup <dir> [--organization S]                 write a consistent copy of the data and the uploaded files (of every
                                                  organization, or of S) to <dir> (new or empty)
  restore <dir> [--organization S]                (server stopped) put the organizations of a backup (or S only) back,
                                                  replacing only their own data

on one organization (--organization S, the root organization by default; server stopped):
  init [--demo]                                   create the root organization if the data directory is empty
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

environment: PARLEY_DATA_DIR (default ./data), PARLEY_EXTERNAL_URL (the root organization's URL; see README.md)`;

const OPTIONS = {
  email: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string' },
  password: { type: 'string' },
  demo: { type: 'boolean' },
  regenerate: { type: 'boolean' },
  rebuild: { type: 'boolean' },
  revoke: { type: 'boolean' },
  description: { type: 'string' },
  organization: { type: 'string' },
  subdomain: { type: 'string' },
  'owner-email': { type: 'string' },
  'owner-name': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type CommandLine = ReturnType<typeof parseCommandLine>;

const print = (line: string) => process.stdout.write(line + '\n');

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function parseCommandLine() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
}

function loadConfig(demo: boolean | undefined): Config {
  try {
    return configFromEnv({ ...process.env, ...(demo ? { PARLEY_DEMO: '1' } : {}) });
  } catch (error) {
    fail((error as Error).message);
  }
}

async function main(): Promise<void> {
  const line = parseCommandLine();
  const command = line.positionals[0];
  if (!command || line.values.help) {
    print(USAGE);
    return;
  }
  const config = loadConfig(line.values.demo);
  if (command === 'backup') return backupCommand(config, line);
  if (command === 'restore') return restoreCommand(config, line);
  if (isOrganizationCommand(command)) return organizationCommand(config, command, adminOptions(line));
  const { ORGANIZATION_STORE_COMMANDS } = await import('./cli-commands.js');
  if (command !== 'init' && !ORGANIZATION_STORE_COMMANDS[command]) fail(`unknown command '${command}'\n\n${USAGE}`);
  return storeCommand(config, command, line);
}

function adminOptions({ values }: CommandLine): AdminOptions {
  return {
    subdomain: values.subdomain,
    organization: values.organization,
    name: values.name,
    description: values.description,
    ownerEmail: values['owner-email'],
    ownerName: values['owner-name'],
    password: values.password,
  };
}

/** Opens the data directory (refusing a missing one unless `create`), naming it in every refusal. */
async function openStore(config: Config, create: boolean): Promise<HostParts> {
  const where = `${resolve(config.dataDir)} (PARLEY_DATA_DIR)`;
  const noOrganization = `no organization in ${where}: check the path, or create one with 'init' (or by starting the server there)`;
  if (!create && !existsSync(join(config.dataDir, 'CURRENT'))) fail(noOrganization);
  const { Counters, Database, Organization, pino } = await loadStore();
  let db: Database;
  try {
    db = await Database.open(config.dataDir, { sync: true });
  } catch (error) {
    // The message names the directory and why (locked by a running server, not writable).
    fail(`cannot open the data directory ${(error as Error).message}`);
  }
  if (!create && (await Organization.firstId(db)) === undefined) {
    await db.close();
    fail(noOrganization);
  }
  const logger = pino({ level: 'warn' }, pino.destination(2));
  return { config, db, counters: new Counters(db), logger, clock: { now: () => Date.now() } };
}

/** An organization command: the running server runs it, or (none running) this process on the data directory. */
async function organizationCommand(config: Config, command: OrganizationCommand, options: AdminOptions): Promise<void> {
  let lines: string[];
  try {
    lines = await requestCommand(config.dataDir, command, { ...options });
  } catch (error) {
    if (!(error instanceof ControlUnavailable)) fail(`${command} refused: ${(error as Error).message}`);
    const parts = await openStore(config, false);
    const { runOrganizationCommand, standaloneHost } = await loadStore();
    const host = standaloneHost(parts);
    try {
      lines = await runOrganizationCommand(host, command, options);
    } catch (refusal) {
      fail(`${command} refused: ${(refusal as Error).message}`);
    } finally {
      await host.close();
      await parts.db.close();
    }
  }
  for (const line of lines) print(line);
}

/** A command on one organization (`--organization`, the root one by default), with the server stopped. */
async function storeCommand(config: Config, command: string, { values }: CommandLine): Promise<void> {
  const parts = await openStore(config, command === 'init');
  const { db } = parts;
  const { buildFor, closeServices, loadOrCreateOrganization, organizationId, ORGANIZATION_STORE_COMMANDS, standaloneHost, Transaction } = await loadStore();
  if (command === 'init') {
    const { org, services } = await loadOrCreateOrganization(db, parts.counters, config, Date.now(), print, buildFor(parts));
    print(`organization '${org.realm.name}' is ready in ${config.dataDir}`);
    await closeServices(services);
    return db.close();
  }
  const host = standaloneHost(parts);
  const id = await organizationId(db, values.organization).catch((error: Error) => fail(error.message));
  const services = await host.servicesOf(id);
  const tx = new Transaction();
  await ORGANIZATION_STORE_COMMANDS[command]!({ services, values: values as Values, tx, print, fail });
  if (!tx.isEmpty) await services.commit(tx);
  await host.close();
  await db.close();
}

/** Asks the running server for the backup; without one, reads the data directory itself. */
async function backupCommand(config: Config, { positionals, values }: CommandLine): Promise<void> {
  const dir = positionals[1];
  const { dataDir } = config;
  if (!dir) fail('usage: npm run cli -- backup <dir> [--organization <subdomain>]');
  let result: BackupResult;
  let via = 'the running server';
  try {
    result = await requestBackup(dataDir, dir, values.organization);
  } catch (error) {
    if (!(error instanceof ControlUnavailable)) fail(`backup failed: ${(error as Error).message}`);
    if (!existsSync(join(dataDir, 'CURRENT'))) fail(`no database in ${dataDir}`);
    const { backup, Database, uploadStoresOnDisk } = await loadStore();
    let db: Database;
    try {
      db = await Database.open(dataDir, { sync: true });
    } catch (openError) {
      fail(`cannot open ${dataDir}, and no server answers on its control socket: ${(openError as Error).message}`);
    }
    via = 'the data directory (no server running)';
    try {
      result = await backup(db, uploadStoresOnDisk(dataDir), dir, values.organization);
    } catch (backupError) {
      fail(`backup failed: ${(backupError as Error).message}`);
    } finally {
      await db.close();
    }
  }
  const scope = values.organization === undefined ? '' : ` (organization '${values.organization}')`;
  print(
    `backup of ${dataDir}${scope} written to ${result.dir} from ${via}: ${result.entries} entries ` +
      `(${result.omitted} of event queues left out) and ${result.files} uploaded file${result.files === 1 ? '' : 's'} ` +
      `(${((result.bytes + result.fileBytes) / 1048576).toFixed(1)} MiB) in ${result.seconds.toFixed(2)} s`,
  );
  const missing = result.missingFiles ?? [];
  if (missing.length > 0) {
    process.stderr.write(
      `WARNING: the backup lacks ${missing.length} uploaded file(s) that records name and that neither this data directory nor the cluster's files bucket holds ` +
        `(<organization id>/<sha256>): ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}\n`,
    );
  }
}

/** Puts a backup's organizations (or one) back into the data directory; the server must be stopped. */
async function restoreCommand(config: Config, { positionals, values }: CommandLine): Promise<void> {
  const dir = positionals[1];
  if (!dir) fail('usage: npm run cli -- restore <dir> [--organization <subdomain>]');
  const { restoreOrganizations } = await loadStore();
  try {
    const restored = await restoreOrganizations(resolve(dir), config.dataDir, values.organization);
    for (const entry of restored) {
      print(`restored organization ${entry.id} '${entry.subdomain}' into ${config.dataDir}: ${entry.entries} entries, ${entry.files} uploaded file${entry.files === 1 ? '' : 's'} copied`);
    }
  } catch (error) {
    fail(`restore refused: ${(error as Error).message}`);
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
