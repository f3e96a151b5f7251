/** Incoming webhooks: `POST /external/slack_incoming` and `POST /external/github`, authenticated by `?api_key=` as Zulip's `webhook_view`. */
import { ApiError, missingArgument } from '../domain/errors.js';
import { githubMessage } from '../domain/webhooks/github.js';
import { slackMessage } from '../domain/webhooks/slack.js';
import { parsePayload } from '../domain/webhooks/wild.js';
import type { Services } from '../services.js';
import * as schemas from '../../schemas/index.js';
import { webhookSender } from '../queries/webhook-auth.js';
import { sendWebhookMessage } from '../actions/webhooks.js';
import type { Request } from './route.js';

/** POST /external/slack_incoming: a JSON body, or a form with `payload` holding the JSON. */
export async function slackIncoming(services: Services, request: Request<typeof schemas.slackIncomingWebhook>) {
  const p = request.params;
  const bot = webhookSender(services, p.api_key);
  const json = request.raw?.json || p.payload;
  if (json === undefined) throw missingArgument('payload');
  const message = slackMessage(parsePayload(json), p.topic);
  if (message.body !== '') await sendWebhookMessage(services, bot, 'ZulipSlackIncomingWebhook', { ...p, topic: undefined }, message);
  return {};
}

/** POST /external/github */
export async function github(services: Services, request: Request<typeof schemas.githubWebhook>) {
  const p = request.params;
  const bot = webhookSender(services, p.api_key);
  const header = request.raw?.headers['x-github-event'];
  if (!header) throw new ApiError('MISSING_HTTP_EVENT_HEADER', "Missing the HTTP event header 'X-GitHub-Event'", 400, { header: 'X-GitHub-Event' });
  const message = githubMessage(header, parsePayload(request.raw?.json ?? ''), { branches: p.branches, topic: p.topic, ignorePrivateRepositories: p.ignore_private_repositories });
  if (message) await sendWebhookMessage(services, bot, 'ZulipGitHubWebhook', p, message);
  return {};
}
