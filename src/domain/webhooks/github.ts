/**
 * GitHub's webhook events as Zulip's `github` integration renders them: pushes (commits and
 * tags), pull requests, issues and their comments, and the setup ping here; every other event
 * Zulip renders in github-events.ts. Events Zulip ignores answer success without a message;
 * others are refused as Zulip refuses unsupported events.
 */
import { ApiError } from '../errors.js';
import { branchWanted, pullRequestMessage, pushCommitsMessage, pushTagMessage, setupMessage, type CommitData } from './git.js';
import { issueActionEvent, otherGithubEvent, pullRequestActionEvent } from './github-events.js';
import type { Wild } from './wild.js';

/** Events Zulip's integration knows and deliberately says nothing about. */
const IGNORED_EVENTS = ['check_suite', 'label', 'meta', 'milestone', 'organization', 'project_card', 'repository_vulnerability_alert'];
const IGNORED_PULL_REQUEST_ACTIONS = ['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled'];

export interface GithubOptions {
  branches?: string;
  /** A topic given in the URL: the messages then carry the PR's or issue's title. */
  topic?: string;
  ignorePrivateRepositories: boolean;
}

export interface WebhookMessage {
  /** Zulip's complete event type, matched by `only_events` / `exclude_events`. */
  event: string;
  topic: string;
  body: string;
}

export function unsupportedEvent(webhook: string, eventType: string): ApiError {
  return new ApiError('UNSUPPORTED_WEBHOOK_EVENT_TYPE', `The '${eventType}' event isn't currently supported by the ${webhook} webhook; ignoring`, 400, {
    webhook_name: webhook,
    event_type: eventType,
  });
}

const repoName = (p: Wild) => p.at('repository').at('name').str();
const sender = (p: Wild) => p.at('sender').at('login').str();
const prTopic = (p: Wild, type: string, item: Wild) => `${repoName(p)} / ${type} #${item.at('number').int()} ${item.at('title').str()}`;
const isPullRequestComment = (p: Wild) => p.at('issue').has('pull_request');

function pushBody(p: Wild): { event: string; topic: string; body: string } | null {
  const ref = p.at('ref').str();
  if (ref.startsWith('refs/heads/gh-readonly-queue/')) return null;
  if (!ref.startsWith('refs/heads/')) {
    const tag = ref.replace(/^refs\/tags\//, '');
    return { event: 'push_tags', topic: repoName(p), body: pushTagMessage(sender(p), tag, p.at('created').bool() ? 'pushed' : 'removed') };
  }
  const branch = ref.replace(/^refs\/heads\//, '');
  const commits: CommitData[] = p.at('commits').list().map((c) => {
    const username = c.at('author').get('username');
    return { name: username?.truthy ? username.str() : c.at('author').at('name').str(), sha: c.at('id').str(), url: c.at('url').str(), message: c.at('message').str() };
  });
  const body = pushCommitsMessage(sender(p), p.at('compare').str(), branch, commits, { deleted: p.at('deleted').bool(), forced: p.at('forced').bool() });
  return { event: 'push_commits', topic: `${repoName(p)} / ${branch}`, body };
}

function pullRequestBody(p: Wild, includeTitle: boolean): { event: string; body: string } | null {
  const action = p.at('action').str();
  const pr = p.at('pull_request');
  const base = { user: sender(p), url: pr.at('html_url').str(), number: pr.at('number').int(), title: includeTitle ? pr.at('title').str() : null };
  if (['opened', 'reopened', 'synchronize', 'edited'].includes(action)) {
    const assignee = pr.get('assignee');
    const opening = action === 'opened';
    const changes = p.get('changes');
    const description = (changes?.has('body') ?? false) || opening ? pr.at('body').strOrNull() : null;
    return {
      event: opening || action === 'reopened' ? 'opened_pull_request' : 'updated_pull_request',
      body: pullRequestMessage({
        ...base,
        action: action === 'synchronize' ? 'updated' : action,
        message: description,
        assignee: assignee?.truthy ? assignee.at('login').str() : undefined,
        targetBranch: opening ? pr.at('head').at('label').str() : undefined,
        baseBranch: opening ? pr.at('base').at('label').str() : undefined,
      }),
    };
  }
  if (action === 'assigned' || action === 'unassigned') {
    return { event: 'assigned_or_unassigned_pull_request', body: pullRequestMessage({ ...base, action, assigneeUpdated: p.at('assignee').at('login').str() }) };
  }
  if (action === 'closed') {
    return { event: 'closed_pull_request', body: pullRequestMessage({ ...base, action: pr.at('merged').bool() ? 'merged' : 'closed without merge' }) };
  }
  if (IGNORED_PULL_REQUEST_ACTIONS.includes(action)) return null;
  throw unsupportedEvent('GitHub', `pull_request:${action}`);
}

function issueBody(p: Wild, includeTitle: boolean): string {
  const action = p.at('action').str();
  const issue = p.at('issue');
  const assignee = p.get('assignee');
  return pullRequestMessage({
    user: sender(p),
    action,
    url: issue.at('html_url').str(),
    number: issue.at('number').int(),
    type: 'Issue',
    title: includeTitle ? issue.at('title').str() : null,
    message: action === 'assigned' || action === 'unassigned' ? null : issue.at('body').strOrNull(),
    assigneeUpdated: assignee?.truthy ? assignee.at('login').str() : undefined,
  });
}

function issueCommentBody(p: Wild, includeTitle: boolean): string {
  const action = p.at('action').str();
  const comment = p.at('comment');
  const verb = (action === 'created' ? '[commented]' : `${action} a [comment]`) + `(${comment.at('html_url').str()}) on`;
  const issue = p.at('issue');
  return pullRequestMessage({
    user: sender(p),
    action: verb,
    url: issue.at('html_url').str(),
    number: issue.at('number').int(),
    type: isPullRequestComment(p) ? 'PR' : 'Issue',
    title: includeTitle ? issue.at('title').str() : null,
    message: comment.at('body').str(),
  });
}

/** The message for one delivery, or null when Zulip says nothing about it. */
export function githubMessage(header: string, p: Wild, options: GithubOptions): WebhookMessage | null {
  const repository = p.get('repository');
  if (repository?.truthy && options.ignorePrivateRepositories && repository.at('private').bool()) return null;
  // An edited comment whose text did not change is not news.
  if (header.includes('comment') && !header.includes('discussion') && p.get('action')?.value === 'edited' && p.at('changes').at('body').at('from').str() === p.at('comment').at('body').str()) return null;
  const includeTitle = options.topic !== undefined;
  switch (header) {
    case 'ping':
      return { event: 'ping', topic: repository?.truthy ? repoName(p) : p.at('organization').at('login').str(), body: setupMessage('GitHub', sender(p)) };
    case 'push': {
      const push = pushBody(p);
      if (!push || (push.event === 'push_commits' && !branchWanted(push.topic.slice(repoName(p).length + 3), options.branches))) return null;
      return push;
    }
    case 'pull_request': {
      const worded = pullRequestActionEvent(p, includeTitle);
      if (worded) return worded;
      const pr = pullRequestBody(p, includeTitle);
      return pr && { ...pr, topic: prTopic(p, 'PR', p.at('pull_request')) };
    }
    case 'issues': {
      const worded = issueActionEvent(p, includeTitle);
      if (worded) return worded;
      return { event: 'issues', topic: prTopic(p, 'issue', p.at('issue')), body: issueBody(p, includeTitle) };
    }
    case 'issue_comment':
      return { event: 'issue_comment', topic: prTopic(p, isPullRequestComment(p) ? 'PR' : 'issue', p.at('issue')), body: issueCommentBody(p, includeTitle) };
    default: {
      const other = otherGithubEvent(header, p, includeTitle);
      if (other !== undefined) return other;
      if (header === 'team') throw unsupportedEvent('GitHub', `unsupported team action ${p.at('action').str()}`);
      if (IGNORED_EVENTS.includes(header)) return null;
      throw unsupportedEvent('GitHub', `${header}:${(p.get('action')?.value as string | undefined) ?? '???'}`);
    }
  }
}
