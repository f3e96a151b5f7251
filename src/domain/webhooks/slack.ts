/**
 * Slack-compatible incoming webhook payloads as Zulip's `slack_incoming` integration renders
 * them: Block Kit blocks, legacy attachments, then plain text, with Slack's link and emphasis
 * syntax turned into Zulip's Markdown.
 */
import type { Wild } from './wild.js';

const join = (pieces: readonly string[]) => pieces.map((p) => p.trim()).filter((p) => p !== '').join('\n\n');

function textBlock(block: Wild, plainOnly = false): string {
  block.at('type').oneOf(plainOnly ? ['plain_text'] : ['plain_text', 'mrkdwn']);
  return block.at('text').str();
}

function blockElement(element: Wild): string {
  if (element.at('type').str() !== 'image') return '';
  return `[${element.at('alt_text').str()}](${element.at('image_url').url()})`;
}

function sectionBlock(block: Wild): string {
  const pieces: string[] = [];
  const text = block.get('text');
  if (text) pieces.push(textBlock(text));
  const accessory = block.get('accessory');
  if (accessory) pieces.push(blockElement(accessory));
  const fieldsValue = block.get('fields');
  if (fieldsValue) {
    const fields = fieldsValue.list().map((field) => textBlock(field));
    if (fields.length === 1) {
      pieces.push(fields[0]!);
    } else {
      // Slack shows fields in two columns; a table has no newlines or pipes inside a cell.
      const cells = fields.map((f) => f.replaceAll('\n', ' ').replaceAll('|', ' '));
      let table = '| | |\n|-|-|\n';
      for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ''} |\n`;
      pieces.push(table);
    }
  }
  return join(pieces);
}

export function renderBlock(block: Wild): string {
  const type = block.at('type').oneOf(['actions', 'context', 'divider', 'header', 'image', 'input', 'section']);
  switch (type) {
    case 'context': {
      const elements = block.get('elements');
      if (!elements || !elements.truthy) return '';
      return join(
        elements.list().map((element) => {
          const kind = element.at('type').oneOf(['image', 'plain_text', 'mrkdwn']);
          return kind === 'image' ? blockElement(element) : textBlock(element);
        }),
      );
    }
    case 'divider':
      return '----';
    case 'header':
      return '## ' + textBlock(block.at('text'), true);
    case 'image': {
      const url = block.at('image_url').url();
      const title = block.get('title');
      const alt = title ? textBlock(title, true) : block.at('alt_text').str();
      return `[${alt}](${url})`;
    }
    case 'section':
      return sectionBlock(block);
    default:
      // actions and input blocks are interactive: nothing to show.
      return '';
  }
}

function attachmentFields(fields: Wild): string {
  const lines: string[] = [];
  for (const field of fields.list()) {
    const title = field.get('title');
    const value = field.get('value');
    if (title?.truthy && value?.truthy) lines.push(`*${title.str()}*: ${value.str()}`);
    else if (title?.truthy) lines.push(`*${title.str()}*`);
    else if (value?.truthy) lines.push(value.str());
  }
  return lines.join('\n');
}

export function renderAttachment(attachment: Wild): string {
  const pieces: string[] = [];
  const present = (key: string) => {
    const value = attachment.get(key);
    return value?.truthy ? value : undefined;
  };
  const title = present('title');
  if (title) {
    const link = present('title_link');
    pieces.push(link ? `## [${title.str()}](${link.url()})` : `## ${title.str()}`);
  }
  for (const key of ['pretext', 'text']) {
    const value = present(key);
    if (value) pieces.push(value.str());
  }
  const fields = attachment.get('fields');
  if (fields) pieces.push(attachmentFields(fields));
  const blocks = present('blocks');
  if (blocks) pieces.push(...blocks.list().map(renderBlock));
  const image = present('image_url');
  if (image) pieces.push(`[](${image.url()})`);
  const footer = present('footer');
  if (footer) pieces.push(footer.str());
  const ts = present('ts');
  if (ts) pieces.push(`<time:${ts.int()}>`);
  return join(pieces);
}

/** Slack's `<url|text>` links as Markdown links. */
export function replaceLinks(text: string): string {
  return text.replace(/<(\w+?:\/\/.*?)\|(.*?)>/gu, '[$2]($1)');
}

/** Slack's `*bold*` and `_italic_` as Zulip's `**bold**` and `*italic*`. */
export function replaceFormatting(text: string): string {
  const bold = /([^\p{L}\p{N}_]|^)\*(?!\s+)([^*\n]+)(?<!\s)\*((?=[^\p{L}\p{N}_])|$)/gu;
  const italic = /([^\p{L}\p{N}_]|^)_(?!\s+)([^_\n]+)(?<!\s)_((?=[^\p{L}\p{N}_])|$)/gu;
  return text.replace(bold, '$1**$2**$3').replace(italic, '$1*$2*$3');
}

/** The message's topic and body, or a body of '' when there is nothing to say. */
export function slackMessage(payload: Wild, topicParam: string | undefined): { topic: string; body: string } {
  let topic = topicParam;
  const channel = payload.get('channel');
  if (topic === undefined && channel) topic = channel.str().replace(/^[@#]/, '');
  const pieces: string[] = [];
  const blocks = payload.get('blocks');
  if (blocks?.truthy) pieces.push(...blocks.list().map(renderBlock));
  const attachments = payload.get('attachments');
  if (attachments?.truthy) pieces.push(...attachments.list().map(renderAttachment));
  let body = join(pieces);
  const text = payload.get('text');
  if (body === '' && text?.truthy) {
    const icon = payload.get('icon_emoji');
    body = ((icon?.truthy ? icon.str() + ' ' : '') + text.str()).trim();
  }
  if (body !== '') body = replaceFormatting(replaceLinks(body).trim());
  return { topic: topic ?? '(no topic)', body };
}
