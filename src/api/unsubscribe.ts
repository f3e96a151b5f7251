/** The page of a missed-message email's unsubscribe link: `/accounts/unsubscribe/missed_messages/{token}` (GET, and POST for one-click clients). */
import { unsubscribeFromMissedMessages } from '../actions/unsubscribe.js';
import { escapeHtml as e } from '../domain/html.js';
import type { PageAnswer, PageRequest } from '../http/front.js';
import type { Services } from '../services.js';

function page(title: string, sentence: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body>
<h1>${e(title)}</h1>
<p>${e(sentence)}</p>
</body>
</html>
`;
}

export async function unsubscribe(services: Services, request: PageRequest): Promise<PageAnswer> {
  const user = await unsubscribeFromMissedMessages(services, String(request.params.token));
  if (!user) return { status: 404, html: page('Unknown link', 'This unsubscribe link is not valid. You can change your email notifications in your settings.') };
  const sentence = `${user.deliveryEmail} will no longer get emails about missed messages from ${services.org.realm.name}. You can turn them on again in your notification settings.`;
  return { status: 200, html: page('Unsubscribed', sentence) };
}
