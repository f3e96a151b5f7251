/**
 * The GitHub events Zulip's `github` integration renders besides pushes, pull requests, issues
 * and their comments (github.ts): branches and tags made or deleted, forks, releases, stars and
 * watches, members, teams, the repository's changes, commit comments, reviews and their comments,
 * wiki pages, statuses, checks, deployments, Pages builds, discussions, and the pull request and
 * issue actions Zulip words on their own (labels, milestones, transfers, review requests, locks,
 * auto-merge). Each is Zulip's event name (for `only_events`), topic and message text.
 */
import { pullRequestMessage, shortSha } from './git.js';
import type { Wild } from './wild.js';

export interface GithubEvent {
  event: string;
  topic: string;
  body: string;
}

/** Team actions GitHub documents and Zulip deliberately says nothing about. */
const IGNORED_TEAM_ACTIONS = ['added_to_repository', 'created', 'deleted', 'removed_from_repository'];

const str = (w: Wild, ...path: string[]) => path.reduce((at, key) => at.at(key), w).str();
const repoName = (p: Wild) => str(p, 'repository', 'name');
const fullName = (p: Wild) => str(p, 'repository', 'full_name');
const repoUrl = (p: Wild) => str(p, 'repository', 'html_url');
const sender = (p: Wild) => str(p, 'sender', 'login');
const senderUrl = (p: Wild) => str(p, 'sender', 'html_url');
const quote = (message: string) => `\n~~~ quote\n${message}\n~~~`;
/** Python's `str.format` of an optional value: None prints as "None". */
const py = (value: string | null) => value ?? 'None';

const prTopic = (p: Wild) => `${repoName(p)} / PR #${p.at('pull_request').at('number').int()} ${str(p, 'pull_request', 'title')}`;
const issueTopic = (p: Wild) => {
  const issue = p.at('issue');
  return `${repoName(p)} / ${issue.has('pull_request') ? 'PR' : 'issue'} #${issue.at('number').int()} ${issue.at('title').str()}`;
};
const discussionTopic = (p: Wild) => `${repoName(p)} discussion #${p.at('discussion').at('number').int()}: ${str(p, 'discussion', 'title')}`;
const deploymentTopic = (p: Wild) => `${repoName(p)} / Deployment on ${str(p, 'deployment', 'environment')}`;

/** Zulip's `get_comment_action`: "[commented](url) on", or "edited a [comment](url) on". */
function commentAction(p: Wild): string {
  const action = p.at('action').str();
  return `${action === 'created' ? '[commented]' : `${action} a [comment]`}(${str(p, 'comment', 'html_url')}) on`;
}

function commitComment(p: Wild): string {
  const comment = p.at('comment');
  const url = comment.at('html_url').str();
  const body = comment.at('body').str();
  const text = `${sender(p)} [commented](${url}) on [${shortSha(comment.at('commit_id').str())}](${url.split('#', 1)[0]})`;
  return body ? `${text}:${quote(body)}` : `${text}.`;
}

function pageBuild(p: Wild): string {
  const build = p.at('build');
  const status = build.at('status').str();
  const actions: Record<string, string> = { null: 'has yet to be built', building: 'is being built', errored: 'has failed: {}', built: 'has finished building' };
  let action = actions[status] ?? `is ${status}`;
  const error = build.at('error').at('message');
  if (error.truthy) action = action.replace('{}', quote(error.str()));
  return `GitHub Pages build, triggered by ${str(build, 'pusher', 'login')}, ${action}.`;
}

function status(p: Wild): string {
  const state = p.at('state').str();
  const target = p.at('target_url');
  const shown = target.truthy ? `[${state}](${target.str()})` : state;
  return `[${shortSha(p.at('sha').str())}](${str(p, 'commit', 'html_url')}) changed its status to ${shown}.`;
}

function checkRun(p: Wild): string {
  const run = p.at('check_run');
  const sha = run.at('head_sha').str();
  return `Check [${run.at('name').str()}](${run.at('html_url').str()}) ${run.at('status').str()} (${run.at('conclusion').str()}). ([${shortSha(sha)}](${repoUrl(p)}/commit/${sha}))`;
}

function wikiPages(p: Wild): string {
  const pages = p.at('pages').list().map((page) => `* ${page.at('action').str()} [${page.at('title').str()}](${page.at('html_url').str()})`);
  return `${sender(p)}:\n${pages.join('\n')}`;
}

function release(p: Wild): string {
  const r = p.at('release');
  const tag = r.at('tag_name').str();
  const name = r.at('name').truthy ? r.at('name').str() : tag;
  return `${sender(p)} ${p.at('action').str()} release [${name}](${r.at('html_url').str()}) for tag ${tag}.`;
}

function team(p: Wild): string {
  const changes = p.at('changes');
  if (changes.has('description')) return `**${sender(p)}** changed the team description to:\n${quote(str(p, 'team', 'description'))}`;
  if (changes.has('name')) return `Team \`${str(changes, 'name', 'from')}\` was renamed to \`${str(p, 'team', 'name')}\`.`;
  if (changes.has('privacy')) return `Team visibility changed to \`${str(p, 'team', 'privacy')}\``;
  return `Team has changes to \`${Object.keys(changes.value as object).sort().join('/')}\` data.`;
}

function discussion(p: Wild): string {
  const d = p.at('discussion');
  return `${sender(p)} created [discussion #${d.at('number').int()}](${d.at('html_url').str()}) in ${str(d, 'category', 'name')}:\n\n~~~ quote\n### ${d.at('title').str()}\n${d.at('body').str()}\n~~~`;
}

function discussionComment(p: Wild, includeTitle: boolean): string {
  const d = p.at('discussion');
  return pullRequestMessage({
    user: sender(p), action: commentAction(p), url: d.at('html_url').str(), number: d.at('number').int(),
    message: str(p, 'comment', 'body'), title: includeTitle ? d.at('title').str() : null, type: 'discussion',
  });
}

/** The simple events: header → [Zulip's event name, topic, body]. */
const SIMPLE: Record<string, (p: Wild) => [string, string]> = {
  commit_comment: (p) => [repoName(p), commitComment(p)],
  create: (p) => [repoName(p), `${sender(p)} created ${p.at('ref_type').str()} ${p.at('ref').str()}.`.trimEnd()],
  delete: (p) => [repoName(p), `${sender(p)} deleted ${p.at('ref_type').str()} ${p.at('ref').str()}.`.trimEnd()],
  deployment: (p) => [deploymentTopic(p), `${sender(p)} created new deployment.`],
  deployment_status: (p) => [deploymentTopic(p), `Deployment changed status to ${str(p, 'deployment_status', 'state')}.`],
  discussion: (p) => [discussionTopic(p), discussion(p)],
  fork: (p) => [repoName(p), `${sender(p)} forked [${str(p, 'forkee', 'name')}](${str(p, 'forkee', 'html_url')}).`],
  gollum: (p) => [`${repoName(p)} / wiki pages`, wikiPages(p)],
  member: (p) => [repoName(p), `${sender(p)} ${p.at('action').str()} [${str(p, 'member', 'login')}](${str(p, 'member', 'html_url')}) to [${repoName(p)}](${repoUrl(p)}).`],
  membership: (p) => {
    const action = p.at('action').str();
    const body = `${sender(p)} ${action} [${str(p, 'member', 'login')}](${str(p, 'member', 'html_url')}) ${action === 'removed' ? 'from' : 'to'} the ${str(p, 'team', 'name')} team.`;
    return [`${str(p, 'organization', 'login')} organization`, body];
  },
  page_build: (p) => [repoName(p), pageBuild(p)],
  public: (p) => [repoName(p), `${sender(p)} made the repository [${fullName(p)}](${repoUrl(p)}) public.`],
  release: (p) => [repoName(p), release(p)],
  repository: (p) => [repoName(p), `${sender(p)} ${p.at('action').str()} the repository [${fullName(p)}](${repoUrl(p)}).`],
  star: (p) => [repoName(p), `[${sender(p)}](${senderUrl(p)}) ${p.at('action').str() === 'created' ? 'starred' : 'unstarred'} the repository [${fullName(p)}](${repoUrl(p)}).`],
  status: (p) => [repoName(p), status(p)],
  team_add: (p) => [repoName(p), `The repository [${fullName(p)}](${repoUrl(p)}) was added to team ${str(p, 'team', 'name')}.`],
  watch: (p) => [repoName(p), `${sender(p)} starred the repository [${fullName(p)}](${repoUrl(p)}).`],
};

/**
 * The message for a header github.ts does not handle itself: an event, null when Zulip says
 * nothing (a check still running, a team action it ignores, an empty review edit), or undefined
 * when Zulip does not know the event (the caller refuses it).
 */
export function otherGithubEvent(header: string, p: Wild, includeTitle: boolean): GithubEvent | null | undefined {
  const simple = SIMPLE[header];
  if (simple) {
    const [topic, body] = simple(p);
    return { event: header, topic, body };
  }
  switch (header) {
    case 'check_run':
      return str(p, 'check_run', 'status') === 'completed' ? { event: header, topic: `${repoName(p)} / checks`, body: checkRun(p) } : null;
    case 'discussion_comment':
      return { event: header, topic: discussionTopic(p), body: discussionComment(p, includeTitle) };
    case 'team': {
      const action = p.at('action').str();
      if (action === 'edited') return { event: 'team', topic: `team ${str(p, 'team', 'name')}`, body: team(p) };
      return IGNORED_TEAM_ACTIONS.includes(action) ? null : undefined;
    }
    case 'pull_request_review': {
      // GitHub follows a submitted review with an empty "edited" one: Zulip says nothing of it.
      if (p.at('action').str() === 'edited' && Object.keys((p.get('changes')?.value as object | null) ?? {}).length === 0) return null;
      const pr = p.at('pull_request');
      const title = `for #${pr.at('number').int()} ${pr.at('title').str()}`;
      const body = pullRequestMessage({ user: sender(p), action: 'submitted', url: str(p, 'review', 'html_url'), type: 'PR review', title: includeTitle ? title : null, message: p.at('review').at('body').strOrNull() });
      return { event: header, topic: prTopic(p), body };
    }
    case 'pull_request_review_comment': {
      const action = p.at('action').str();
      const pr = p.at('pull_request');
      const title = `on #${pr.at('number').int()} ${pr.at('title').str()}`;
      const message = action === 'created' ? str(p, 'comment', 'body') : null;
      const body = pullRequestMessage({ user: sender(p), action, url: str(p, 'comment', 'html_url'), message, type: 'PR review comment', title: includeTitle ? title : null });
      return { event: header, topic: prTopic(p), body };
    }
    default:
      return undefined;
  }
}

/** Pull request actions Zulip words on their own; undefined for the others. */
export function pullRequestActionEvent(p: Wild, includeTitle: boolean): GithubEvent | undefined {
  const action = p.at('action').str();
  const pr = p.at('pull_request');
  const number = pr.at('number').int();
  const url = pr.at('html_url').str();
  const topic = prTopic(p);
  if (action === 'review_requested') {
    const reviewer = p.has('requested_reviewer') ? p.at('requested_reviewer') : p.at('requested_team');
    const who = `[${p.has('requested_reviewer') ? reviewer.at('login').str() : reviewer.at('name').str()}](${reviewer.at('html_url').str()})`;
    const link = includeTitle ? `[PR #${number} ${pr.at('title').str()}](${url})` : `[PR #${number}](${url})`;
    return { event: 'pull_request_review_requested', topic, body: `**${sender(p)}** requested ${who} for a review on ${link}.` };
  }
  if (action === 'ready_for_review') return { event: 'pull_request_ready_for_review', topic, body: `**${sender(p)}** has marked [PR #${number}](${url}) as ready for review.` };
  if (action === 'locked' || action === 'unlocked') {
    const reason = pr.at('active_lock_reason').truthy ? pr.at('active_lock_reason').str() : null;
    const body = action === 'unlocked' ? `${sender(p)} has unlocked [PR #${number}](${url}).` : `${sender(p)} has locked [PR #${number}](${url}) as ${py(reason)} and limited conversation to collaborators.`;
    return { event: 'locked_or_unlocked_pull_request', topic, body };
  }
  if (action === 'auto_merge_enabled' || action === 'auto_merge_disabled') {
    return { event: 'pull_request_auto_merge', topic, body: `${sender(p)} has ${action === 'auto_merge_enabled' ? 'enabled' : 'disabled'} auto merge for [PR #${number}](${url}).` };
  }
  return undefined;
}

/** Issue actions Zulip words on their own (labels, milestones, transfers); undefined for the others. */
export function issueActionEvent(p: Wild, includeTitle: boolean): GithubEvent | undefined {
  const action = p.at('action').str();
  const issue = p.at('issue');
  const number = issue.at('number').int();
  const url = issue.at('html_url').str();
  const title = issue.at('title').str();
  const topic = issueTopic(p);
  const named = (kind: string) => (includeTitle ? `[${kind} #${number} ${title}](${url})` : `[${kind} #${number}](${url})`);
  if (action === 'labeled' || action === 'unlabeled') {
    const added = action === 'labeled';
    const body = `[${sender(p)}](${senderUrl(p)}) ${added ? 'added' : 'removed'} the ${str(p, 'label', 'name')} label ${added ? 'to' : 'from'} ${named('Issue')}.`;
    return { event: 'issue_labeled_or_unlabeled', topic, body };
  }
  if (action === 'milestoned' || action === 'demilestoned') {
    const added = action === 'milestoned';
    const milestone = p.at('milestone');
    const body = `[${sender(p)}](${senderUrl(p)}) ${added ? 'added' : 'removed'} milestone [${milestone.at('title').str()}](${milestone.at('html_url').str()}) ${added ? 'to' : 'from'} ${named('issue')}.`;
    return { event: 'issue_milestoned_or_demilestoned', topic, body };
  }
  const changes = p.get('changes');
  if (action === 'transferred') {
    const body = `${sender(p)} transferred [issue #${number} ${title}](${url}) to [${str(changes!, 'new_repository', 'full_name')}/#${changes!.at('new_issue').at('number').int()}](${str(changes!, 'new_issue', 'html_url')}).`;
    return { event: 'issues_transferred', topic, body };
  }
  if (action === 'opened' && changes?.get('old_issue')?.truthy) {
    const body = `[Issue #${number} ${title}](${url}) was transferred from [${str(changes, 'old_repository', 'full_name')}#${changes.at('old_issue').at('number').int()}](${str(changes, 'old_issue', 'html_url')}).`;
    return { event: 'issues_opened_via_transfer', topic, body };
  }
  return undefined;
}

/** Zulip's event names for the integration (`all_event_types`), sorted. */
export const GITHUB_EVENT_TYPES = [
  'assigned_or_unassigned_pull_request', 'check_run', 'closed_pull_request', 'commit_comment', 'create', 'delete', 'deployment', 'deployment_status',
  'discussion', 'discussion_comment', 'fork', 'gollum', 'issue_comment', 'issue_labeled_or_unlabeled', 'issue_milestoned_or_demilestoned', 'issues',
  'issues_opened_via_transfer', 'issues_transferred', 'locked_or_unlocked_pull_request', 'member', 'membership', 'opened_pull_request', 'page_build', 'ping',
  'public', 'pull_request_auto_merge', 'pull_request_ready_for_review', 'pull_request_review', 'pull_request_review_comment', 'pull_request_review_requested',
  'push_commits', 'push_tags', 'release', 'repository', 'star', 'status', 'team', 'team_add', 'updated_pull_request', 'watch',
] as const;
