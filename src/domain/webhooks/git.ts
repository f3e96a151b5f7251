/**
 * The sentences Zulip's git integrations share (`zerver/lib/webhooks/git.py`): pushes with their
 * commit lists, pull requests and issues with their actions, quotes and assignees.
 */
const COMMITS_LIMIT = 20;
const COMMITTERS_LIMIT = 3;

export interface CommitData {
  name: string;
  sha: string;
  url: string;
  message: string;
}

export const shortSha = (sha: string) => sha.slice(0, 7);

const quote = (message: string) => `\n~~~ quote\n${message}\n~~~`;

/** Committers by number of commits (ties by name), the rest counted as `others`. */
function committers(commits: readonly CommitData[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const commit of commits) counts.set(commit.name, (counts.get(commit.name) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (sorted.length <= COMMITTERS_LIMIT) return sorted;
  const others = sorted.slice(COMMITTERS_LIMIT).reduce((sum, [, n]) => sum + n, 0);
  return [...sorted.slice(0, COMMITTERS_LIMIT), ['others', others]];
}

function commitList(commits: readonly CommitData[]): string {
  let text = '';
  for (const commit of commits.slice(0, COMMITS_LIMIT)) {
    text += `* ${commit.message.split('\n', 1)[0]} ([${shortSha(commit.sha)}](${commit.url}))\n`;
  }
  if (commits.length > COMMITS_LIMIT) text += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  return text.trimEnd();
}

export function pushCommitsMessage(user: string, compareUrl: string, branch: string, commits: readonly CommitData[], options: { deleted: boolean; forced: boolean }): string {
  if (commits.length === 0 && options.deleted) return `${user} [deleted](${compareUrl}) the branch ${branch}.`;
  if (commits.length === 0 && !options.forced) return `${user} [pushed](${compareUrl}) the branch ${branch}.`;
  const verb = options.forced ? 'force pushed' : 'pushed';
  const pushed = `[${verb}](${compareUrl}) ${commits.length} commit${commits.length === 1 ? '' : 's'}`;
  const base = `${user} ${pushed} to branch ${branch}.`;
  const people = committers(commits);
  if (people.length === 1 && people[0]![0] === user) return `${base}\n\n${commitList(commits)}`.trimEnd();
  let details = `${people[0]![0]} (${people[0]![1]})`;
  for (const [name, n] of people.slice(1, -1)) details += `, ${name} (${n})`;
  if (people.length > 1) details += ` and ${people.at(-1)![0]} (${people.at(-1)![1]})`;
  return `${base} Commits by ${details}.\n\n${commitList(commits)}`.trimEnd();
}

export function pushTagMessage(user: string, tag: string, action: string): string {
  const message = `${user} ${action} tag ${tag}`;
  return /[!-/:-@[-`{-~]$/.test(tag) ? message : `${message}.`;
}

export interface EventMessage {
  user: string;
  action: string;
  url: string;
  number?: number;
  type?: string;
  title?: string | null;
  message?: string | null;
  targetBranch?: string;
  baseBranch?: string;
  assignee?: string;
  /** Who was assigned or unassigned by this event. */
  assigneeUpdated?: string;
}

/** Zulip's `get_pull_request_event_message` (issues use it with type `Issue`). */
export function pullRequestMessage(e: EventMessage): string {
  const id = e.number === undefined ? '' : ` #${e.number}`;
  const title = e.title == null ? '' : ` ${e.title}`;
  let main = `${e.user} ${e.action} [${e.type ?? 'PR'}${id}${title}](${e.url})`;
  if (e.assignee) main += ` (assigned to ${e.assignee})`;
  if (e.assigneeUpdated) main += ` ${e.action === 'unassigned' ? 'from' : 'to'} ${e.assigneeUpdated}`;
  if (e.targetBranch && e.baseBranch) main += ` from \`${e.targetBranch}\` to \`${e.baseBranch}\``;
  const punctuation = e.message ? ':' : '.';
  // A title may already end in punctuation of its own.
  const endsWithTitle = !(e.assignee || e.assigneeUpdated || (e.targetBranch && e.baseBranch)) && e.title != null;
  if (!endsWithTitle || !/[!-/:-@[-`{-~]$/.test(e.title!)) main += punctuation;
  if (e.message) main += '\n' + quote(e.message);
  return main.trimEnd();
}

export const setupMessage = (integration: string, user?: string) => `${integration} webhook has been successfully configured${user ? ` by ${user}` : ''}.`;

/** Zulip's `is_branch_name_notifiable`: the `branches` parameter lists the branches to tell about. */
export function branchWanted(branch: string, branches: string | undefined): boolean {
  if (branches === undefined) return true;
  return branches.split(',').map((b) => b.trim()).includes(branch);
}
