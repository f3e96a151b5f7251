/**
 * Outgoing webhook bots (Zulip's `outgoing_webhooks` queue worker): when a person mentions such
 * a bot in a channel, or sends it a direct message, the server POSTs the message to the bot's
 * `payload_url` after the send is answered, and posts the reply it gets as the bot, in the same
 * conversation. Failures are told as Zulip tells them: a failure notice in the conversation
 * and, from the bot, a direct message to its owner. Connection errors and timeouts are retried
 * three times.
 */
import { BotInterface, BotType } from '../domain/bots.js';
import { mentionsOf } from '../domain/mentions.js';
import type { MessageRecord } from '../domain/messages.js';
import { apiEmail, type UserRecord } from '../domain/users.js';
import type { Services } from '../services.js';
import { formatMessage } from '../queries/message-format.js';
import { prepareMessage, sendMessage, writeMessage, type SendRequest } from './message-send.js';

const TIMEOUT_MS = 10_000;
const MAX_ATTEMPTS = 4;

type Trigger = 'mention' | 'direct_message';

/** `POST /messages` with what follows a person's message: the outgoing webhooks it triggers. */
export async function sendAndNotifyServiceBots(services: Services, sender: UserRecord, client: string, request: SendRequest) {
  const answer = await sendMessage(services, sender, client, request);
  const record = services.messages.get(answer.id as number);
  // As Zulip: a bot's messages trigger no service bot (no loops between bots).
  if (record && !sender.isBot) {
    for (const [bot, trigger] of triggered(services, sender, record)) setImmediate(() => void deliver(services, bot, record, trigger, 1));
  }
  return answer;
}

function triggered(services: Services, sender: UserRecord, record: MessageRecord): [UserRecord, Trigger][] {
  const { org } = services;
  const isServiceBot = (u: UserRecord | undefined): u is UserRecord => !!u && u.isActive && u.isBot && u.botType === BotType.OUTGOING_WEBHOOK && !!u.botService;
  if (record.type === 'private') {
    return (record.dmUserIds ?? []).map((id) => org.users.get(id)).filter(isServiceBot).filter((u) => u.id !== sender.id).map((u) => [u, 'direct_message']);
  }
  const mentioned = mentionsOf(services.render(record.content, sender), org.groups).users;
  return [...mentioned].map((id) => org.users.get(id)).filter(isServiceBot).map((u) => [u, 'mention']);
}

/** The message as Zulip's `finalize_payload` gives it to outgoing webhooks: raw content plus `rendered_content`. */
function messagePayload(services: Services, bot: UserRecord, record: MessageRecord): Record<string, unknown> {
  const message = formatMessage(services, record, bot.id, 0, { applyMarkdown: false, clientGravatar: false, allowEmptyTopicName: true });
  delete message.flags;
  return { ...message, rendered_content: record.renderedContent };
}

function request(services: Services, bot: UserRecord, record: MessageRecord, trigger: Trigger): RequestInit {
  const service = bot.botService!;
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  if (service.interface === BotInterface.SLACK) {
    const form = new URLSearchParams([
      ['token', service.token], ['team_id', `T${services.org.id}`], ['team_domain', services.org.host], ['channel_id', `C${record.channelId}`],
      ['channel_name', services.org.channels.get(record.channelId!)?.name ?? ''], ['thread_ts', String(record.timestamp)], ['timestamp', String(record.timestamp)],
      ['user_id', `U${record.senderId}`], ['user_name', services.org.users.get(record.senderId)?.fullName ?? ''], ['text', record.content],
      ['trigger_word', trigger], ['service_id', String(bot.id)],
    ]);
    return { method: 'POST', body: form, signal };
  }
  const body = {
    data: record.content, message: messagePayload(services, bot, record), bot_email: apiEmail(bot, services.org.host), bot_full_name: bot.fullName, token: service.token, trigger,
  };
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal };
}

/** Zulip's `process_success` per interface: the reply's content, or none. */
function replyOf(interfaceType: number, response: unknown): string | undefined {
  // Older bot servers said "no reply" with a JSON empty string.
  if (response === '') return undefined;
  if (response === null || typeof response !== 'object' || Array.isArray(response)) throw new Error('Invalid response format');
  const r = response as Record<string, unknown>;
  if (interfaceType === BotInterface.SLACK) return r.text === undefined ? undefined : String(r.text);
  if (r.response_not_required) return undefined;
  if (r.response_string !== undefined) return String(r.response_string);
  if (r.content !== undefined) return String(r.content);
  return undefined;
}

/** Zulip's `send_response_message`: as the bot, into the conversation of `record` (or to `to`). */
async function respond(services: Services, bot: UserRecord, record: MessageRecord, content: string, to?: UserRecord): Promise<void> {
  const current = services.org.users.get(bot.id);
  if (!current?.isActive || content.trim() === '') return;
  const request: SendRequest = to
    ? { type: 'private', to: [to.id], content }
    : record.type === 'stream'
      ? { type: 'stream', to: record.channelId, topic: record.topic ?? '', content }
      : { type: 'private', to: (record.dmUserIds ?? []).filter((id) => id !== bot.id), content };
  const out = prepareMessage(services, current, 'OutgoingWebhookResponse', request);
  await services.write((tx) => writeMessage(services, tx, out));
}

/** Zulip's `notify_bot_owner`: from the bot to its owner. */
async function tellOwner(services: Services, bot: UserRecord, record: MessageRecord, detail: string): Promise<void> {
  const owner = bot.botOwnerId === null ? undefined : services.org.users.get(bot.botOwnerId);
  if (!owner?.isActive) return;
  const text = `[A message](${services.org.url}/#narrow/near/${record.id}) to your bot @_**${bot.fullName}** triggered an outgoing webhook.\n${detail}`;
  await respond(services, bot, record, text, owner);
}

async function deliver(services: Services, bot: UserRecord, record: MessageRecord, trigger: Trigger, attempt: number): Promise<void> {
  const service = bot.botService!;
  try {
    if (service.interface === BotInterface.SLACK && record.type === 'private') {
      await respond(services, bot, record, "Slack outgoing webhooks don't support direct messages.");
      return;
    }
    let response: Response;
    try {
      response = await fetch(service.baseUrl, request(services, bot, record, trigger));
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const failure = timedOut
        ? `Request timed out after ${TIMEOUT_MS / 1000} seconds.`
        : `The message \`${record.content}\` resulted in a connection error when sending a request to an outgoing webhook! See the Zulip server logs for more information.`;
      if (attempt < MAX_ATTEMPTS) return void setTimeout(() => void deliver(services, bot, record, trigger, attempt + 1), 1000 * attempt);
      await respond(services, bot, record, failure);
      await tellOwner(services, bot, record, failure);
      return;
    }
    const text = await response.text();
    if (!response.ok) {
      await respond(services, bot, record, 'Failure! Bot is unavailable');
      await tellOwner(services, bot, record, `The webhook got a response with status code *${response.status}*.` + (text ? `\nThe response contains the following payload:\n\`\`\`\n${JSON.stringify(text)}\n\`\`\`` : ''));
      return;
    }
    let reply: string | undefined;
    try {
      reply = replyOf(service.interface, JSON.parse(text));
    } catch (error) {
      const message = error instanceof SyntaxError ? 'Invalid JSON in response' : (error as Error).message;
      await respond(services, bot, record, message);
      await tellOwner(services, bot, record, `When trying to send a request to the webhook service, an exception of type JsonableError occurred:\n\`\`\`\n${message}\n\`\`\``);
      return;
    }
    if (reply !== undefined) await respond(services, bot, record, reply);
  } catch (error) {
    services.logger.warn({ err: error, bot: bot.id, message: record.id }, 'outgoing webhook failed');
  }
}
