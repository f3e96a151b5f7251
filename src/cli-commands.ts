/**
 * The CLI's commands on one organization (`--organization <subdomain>`, the root one by default),
 * run on a stopped server's data directory: users, roles, passwords, API keys, the mail outbox,
 * the organization's profile and its search index. Each writes into the caller's transaction.
 */
import { changeRole, createAccount, regenerateApiKey, setPassword } from './actions/accounts.js';
import { setOrganizationProfile } from './actions/organization-profile.js';
import { subscribeUsers } from './actions/subscriptions.js';
import { checkNewUser } from './actions/users.js';
import { generatePassword, hashPassword, isLongEnoughPassword, MIN_PASSWORD_LENGTH, PASSWORD_TOO_WEAK } from './domain/credentials.js';
import { Role } from './domain/roles.js';
import type { UserRecord } from './domain/users.js';
import { rebuildSearchIndex } from './ops/search-rebuild.js';
import type { Services } from './services.js';
import type { Transaction } from './store/transaction.js';

export const ROLE_NAMES: Record<string, Role> = {
  owner: Role.OWNER,
  administrator: Role.ADMINISTRATOR,
  admin: Role.ADMINISTRATOR,
  moderator: Role.MODERATOR,
  member: Role.MEMBER,
  guest: Role.GUEST,
};

/** Zulip's special permission that `new_email` in PATCH /users/{id} needs (with the owner role). */
const SPECIAL_PERMISSION = 'can_change_user_emails';

export interface Values {
  email?: string;
  name?: string;
  role?: string;
  password?: string;
  regenerate?: boolean;
  rebuild?: boolean;
  revoke?: boolean;
  description?: string;
}

/** What a command is given; `fail` ends the command with a message (and exit code 2). */
export interface CommandContext {
  services: Services;
  values: Values;
  tx: Transaction;
  print(line: string): void;
  fail(message: string): never;
}

type Command = (context: CommandContext) => Promise<void> | void;

/** Runs a rule check; an ApiError (or any error) it throws ends the command with its message. */
function refusedAs<T>(context: CommandContext, command: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    context.fail(`${command} refused: ${(error as Error).message}`);
  }
}

function roleOf(context: CommandContext, name: string | undefined): Role {
  const role = ROLE_NAMES[(name ?? 'member').toLowerCase()];
  if (role === undefined) context.fail(`unknown role '${name}'`);
  return role;
}

function userByEmail(context: CommandContext): UserRecord {
  const { services, values } = context;
  if (!values.email) context.fail('--email is required');
  const user = services.org.users.byEmail(values.email);
  if (!user) context.fail(`no user with email ${values.email} in organization '${services.org.realm.subdomain}'`);
  return user;
}

async function createUser(context: CommandContext): Promise<void> {
  const { services, values, tx, print } = context;
  const { org, counters } = services;
  if (!values.email || !values.name) context.fail('--email and --name are required');
  // The API's rules (POST /users): address syntax, a free address, the name, the password minimum.
  const { email, fullName } = refusedAs(context, 'create-user', () => checkNewUser(org, { email: values.email!, fullName: values.name!, password: values.password }));
  const password = values.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  const user = createAccount(org, counters, tx, { email, fullName, role: roleOf(context, values.role), passwordHash, nowMs: Date.now() });
  subscribeUsers(services, tx, [user], [...org.channels.all()].filter((channel) => channel.isDefault));
  print(`created user ${user.id} ${user.deliveryEmail}`);
  if (!values.password) print(`password: ${password}`);
  print(`API key:  ${user.apiKey}`);
}

function changeUserRole(context: CommandContext): void {
  const { services, values, tx, print } = context;
  const { org } = services;
  const user = userByEmail(context);
  if (!values.role) context.fail('--role is required');
  if (values.role === SPECIAL_PERMISSION) {
    org.users.save({ ...user, canChangeUserEmails: !values.revoke }, tx);
    print(`${user.deliveryEmail} ${values.revoke ? 'no longer has' : 'now has'} ${SPECIAL_PERMISSION}`);
    return;
  }
  const role = roleOf(context, values.role);
  if (user.role === Role.OWNER && role !== Role.OWNER && [...org.users.all()].filter((u) => u.isActive && u.role === Role.OWNER).length <= 1) {
    context.fail('the owner role cannot be removed from the only organization owner');
  }
  changeRole(org, tx, user, role);
  print(`${user.deliveryEmail} is now ${values.role}`);
}

async function resetPassword(context: CommandContext): Promise<void> {
  const { services, values, tx, print } = context;
  if (values.password !== undefined && !isLongEnoughPassword(values.password)) context.fail(`reset-password refused: ${PASSWORD_TOO_WEAK} (at least ${MIN_PASSWORD_LENGTH} characters)`);
  const password = values.password ?? generatePassword();
  const user = await setPassword(services.org, tx, userByEmail(context), password);
  print(`new password for ${user.deliveryEmail}: ${password}`);
}

function apiKey(context: CommandContext): void {
  let user = userByEmail(context);
  if (context.values.regenerate) user = regenerateApiKey(context.services.org, context.tx, user);
  context.print(user.apiKey);
}

function organizationProfile(context: CommandContext): void {
  const { services, values, tx, print } = context;
  const realm = refusedAs(context, 'organization', () => setOrganizationProfile(services.org, tx, { name: values.name, description: values.description }));
  print(`name: ${realm.name}`);
  print(`description: ${realm.description}`);
}

function listUsers({ services, print }: CommandContext): void {
  for (const user of services.org.users.all()) {
    const kind = user.isBot ? 'bot' : (Object.entries(ROLE_NAMES).find(([, r]) => r === user.role)?.[0] ?? String(user.role));
    print(`${user.id}\t${user.deliveryEmail}\t${user.fullName}\t${kind}${user.isActive ? '' : '\t(deactivated)'}`);
  }
}

/** The mail kept in the store because no SMTP server is configured, links included. */
async function printOutbox({ services, print }: CommandContext): Promise<void> {
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
async function searchIndex({ services, values, print }: CommandContext): Promise<void> {
  const total = await services.messages.count();
  if (!values.rebuild) {
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

/** The commands on one organization, by name. */
export const ORGANIZATION_STORE_COMMANDS: Record<string, Command> = {
  'create-user': createUser,
  'change-role': changeUserRole,
  'reset-password': resetPassword,
  'api-key': apiKey,
  organization: organizationProfile,
  'list-users': listUsers,
  outbox: printOutbox,
  'search-index': searchIndex,
};
