/**
 * Widgets (Zulip's zerver/lib/widget.py and its validators): the `/poll` and `/todo` a message's
 * content starts with, a bot's `widget_content` (a zform), and the submessages that vote, add
 * options and tasks, as Zulip checks them. Submessages are stored as their senders wrote them.
 */
import { ApiError, badRequest } from './errors.js';

export interface SubmessageRecord {
  id: number;
  senderId: number;
  msgType: string;
  /** JSON text, as sent. */
  content: string;
}

export interface WidgetStart {
  widgetType: string;
  extraData: unknown;
}

/** A submessage as messages and events carry it (Zulip's `SubMessage.get_raw_db_rows`). */
export const submessageObject = (messageId: number, s: SubmessageRecord) => ({ msg_type: s.msgType, content: s.content, message_id: messageId, sender_id: s.senderId, id: s.id });

/** Python's `str.splitlines()`: every line boundary Python knows, no empty last line for a final break. */
function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Zulip's first-line title, then one item per non-empty line with a leading `-` or `*` dropped. */
function titleAndItems(rest: string): { title: string; items: string[] } {
  const lines = splitLines(rest);
  let title = '';
  if (lines.length > 0 && lines[0] !== '') title = lines.shift()!.trim();
  const items = lines.map((line) => line.trim().replace(/^\s*[-*]?\s*/, '')).filter((item) => item.length > 0);
  return { title, items };
}

/** The widget a message's content starts (`/poll Question` + options, `/todo Title` + tasks), as Zulip's get_widget_data. */
export function widgetFromContent(content: string): WidgetStart | undefined {
  const first = content.split(/\s+|\n+/)[0];
  if (!first.startsWith('/')) return undefined;
  const type = first.slice(1);
  if (type !== 'poll' && type !== 'todo') return undefined;
  const { title, items } = titleAndItems(content.replace(first, ''));
  if (type === 'poll') return { widgetType: 'poll', extraData: { question: title, options: items } };
  const tasks = items.map((item) => {
    const at = item.indexOf(': ');
    return at < 0 ? { task: item.trim(), desc: '' } : { task: item.slice(0, at).trim(), desc: item.slice(at + 2).trim() };
  });
  return { widgetType: 'todo', extraData: { task_list_title: title, tasks } };
}

/** Python's `json.dumps` text (`", "` and `": "` separators, non-ASCII escaped), as Zulip stores a widget's content. */
export function pythonJson(value: unknown): string {
  const ascii = (text: string) => JSON.stringify(text).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof value === 'string') return ascii(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${ascii(k)}: ${pythonJson(v)}`).join(', ')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The first submessage of a widget message, as Zulip writes it when the message is sent. */
export function widgetSubmessageContent(widget: WidgetStart): string {
  return pythonJson({ widget_type: widget.widgetType, extra_data: widget.extraData });
}

type Check = (name: string, value: unknown) => string | undefined;
// Python's bool is an int: Zulip's int checks take true and false too.
const isInt = (value: unknown) => (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'boolean';
const checkString: Check = (name, value) => (typeof value === 'string' ? undefined : `${name} is not a string`);
const checkInt: Check = (name, value) => (isInt(value) ? undefined : `${name} is not an integer`);
const checkBool: Check = (name, value) => (typeof value === 'boolean' ? undefined : `${name} is not a boolean`);
const checkIntIn = (allowed: number[]): Check => (name, value) => checkInt(name, value) ?? (allowed.includes(Number(value)) ? undefined : `Invalid ${name}`);
const checkIntRange = (low: number, high: number): Check => (name, value) =>
  checkInt(name, value) ?? (Number(value) < low ? `${name} is too small` : Number(value) > high ? `${name} is too large` : undefined);
const isDict = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Zulip's check_dict (and check_dict_only with `only`): the required keys in order, then no others. */
function checkDict(name: string, value: unknown, required: [string, Check][], only: boolean): string | undefined {
  if (!isDict(value)) return `${name} is not a dict`;
  for (const [key, check] of required) {
    if (!(key in value)) return `${key} key is missing from ${name}`;
    const error = check(`${name}["${key}"]`, value[key]);
    if (error) return error;
  }
  const extra = Object.keys(value).filter((key) => !required.some(([k]) => k === key));
  return only && extra.length > 0 ? `Unexpected arguments: ${extra.join(', ')}` : undefined;
}

/** Zulip's widget index limit (MAX_IDX, as the clients have it). */
const MAX_IDX = 1000;
type Rules = Record<string, { keys: [string, Check][]; authorOnly?: string }>;
const POLL: Rules = {
  vote: { keys: [['type', checkString], ['key', checkString], ['vote', checkIntIn([1, -1])]] },
  question: { keys: [['type', checkString], ['question', checkString]], authorOnly: "You can't edit a question unless you are the author." },
  new_option: { keys: [['type', checkString], ['option', checkString], ['idx', checkIntRange(0, MAX_IDX)]] },
};
const TODO: Rules = {
  new_task: { keys: [['type', checkString], ['key', checkIntRange(0, MAX_IDX)], ['task', checkString], ['desc', checkString], ['completed', checkBool]] },
  strike: { keys: [['type', checkString], ['key', checkString]] },
  new_task_list_title: { keys: [['type', checkString], ['title', checkString]], authorOnly: "You can't edit the task list title unless you are the author." },
};

/** Zulip's validate_poll_data / validate_todo_data for a submessage on a widget of `widgetType`; other widgets take anything. */
export function checkWidgetEvent(widgetType: string | undefined, data: unknown, isAuthor: boolean): void {
  const rules = widgetType === 'poll' ? POLL : widgetType === 'todo' ? TODO : undefined;
  if (!rules) return;
  const name = `${widgetType} data`;
  const head = checkDict(name, data, [['type', checkString]], false);
  if (head) throw badRequest(head);
  const type = (data as Record<string, string>).type;
  const rule = Object.hasOwn(rules, type) ? rules[type] : undefined;
  if (!rule) throw badRequest(`Unknown type for ${name}: ${type}`);
  if (rule.authorOnly && !isAuthor) throw badRequest(rule.authorOnly);
  const error = checkDict(name, data, rule.keys, true);
  if (error) throw badRequest(error);
}

/** The widget type a message's first widget submessage names, as Zulip's get_widget_type. */
export function widgetTypeOf(submessages: readonly SubmessageRecord[] | undefined): string | undefined {
  const widget = submessages?.find((s) => s.msgType === 'widget');
  if (!widget) return undefined;
  try {
    const type = (JSON.parse(widget.content) as { widget_type?: unknown }).widget_type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}

/** A bot's `widget_content` on sending (Zulip's check_widget_content: zform choices only), parsed. */
export function checkWidgetContent(raw: string): WidgetStart {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest('Widgets: API programmer sent invalid JSON content');
  }
  const fail = (message: string) => new ApiError('BAD_REQUEST', `Widgets: ${message}`);
  if (!isDict(value)) throw fail('widget_content is not a dict');
  if (!('widget_type' in value)) throw fail('widget_type is not in widget_content');
  if (!('extra_data' in value)) throw fail('extra_data is not in widget_content');
  const extra = value.extra_data;
  if (!isDict(extra)) throw fail('extra_data is not a dict');
  if (value.widget_type !== 'zform') throw fail(`unknown widget type: ${String(value.widget_type)}`);
  if (!('type' in extra)) throw fail('zform is missing type field');
  if (extra.type !== 'choices') throw fail(`unknown zform type: ${String(extra.type)}`);
  const choice: Check = (name, item) => checkDict(name, item, [['short_name', checkString], ['long_name', checkString], ['reply', checkString]], false);
  const choices: Check = (name, list) => (Array.isArray(list) ? list.map((item, i) => choice(`${name}[${i}]`, item)).find(Boolean) : `${name} is not a list`);
  const typeIsChoices: Check = (name, type) => (type === 'choices' ? undefined : `${name} != choices (${String(type)} is wrong)`);
  const error = checkDict('extra_data', extra, [['type', typeIsChoices], ['heading', checkString], ['choices', choices]], false);
  if (error) throw fail(error);
  return { widgetType: 'zform', extraData: extra };
}
