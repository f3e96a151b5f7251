/** The HTML of the join page (`/join/{key}`): the form, the page after joining, and the page of a dead link. Every value is escaped. */
import { escapeHtml as e } from '../domain/html.js';

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;line-height:1.5}'
  + 'label{display:block;margin-top:1rem}input{width:100%;padding:.4rem;font-size:1rem;box-sizing:border-box}'
  + 'button{margin-top:1.5rem;padding:.5rem 1.2rem;font-size:1rem}.problem{color:#b00020}';

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body>
</html>
`;
}

export interface JoinFormView {
  key: string;
  realmName: string;
  referrerName: string | undefined;
  /** The invited address; undefined for a reusable link, whose form asks for one. */
  email: string | undefined;
  /** What the form said last time, shown again with the problem. */
  fullName?: string;
  enteredEmail?: string;
  problem?: string;
}

export function joinFormPage(view: JoinFormView): string {
  const who = view.referrerName ? `${e(view.referrerName)} invited you to join` : 'You are invited to join';
  const address = view.email === undefined
    ? `<label>Email address<input type="email" name="email" autocomplete="email" required value="${e(view.enteredEmail ?? '')}"></label>`
    : `<p>Your account's email address: <strong>${e(view.email)}</strong></p>`;
  const problem = view.problem ? `<p class="problem" role="alert">${e(view.problem)}</p>` : '';
  return page(`Join ${view.realmName}`, `<h1>Join ${e(view.realmName)}</h1>
<p>${who} <strong>${e(view.realmName)}</strong>. Choose your name and a password.</p>
${problem}<form method="post" action="/join/${e(view.key)}/">
${address}
<label>Full name<input type="text" name="full_name" autocomplete="name" required maxlength="100" value="${e(view.fullName ?? '')}"></label>
<label>Password<input type="password" name="password" autocomplete="new-password" required minlength="6"></label>
<button type="submit">Create my account</button>
</form>`);
}

export function joinedPage(view: { realmName: string; realmUrl: string; email: string; fullName: string }): string {
  return page(`Welcome to ${view.realmName}`, `<h1>Welcome, ${e(view.fullName)}!</h1>
<p>Your account in <strong>${e(view.realmName)}</strong> is ready. Log in at <a href="${e(view.realmUrl)}">${e(view.realmUrl)}</a> with <strong>${e(view.email)}</strong> and the password you chose.</p>`);
}

export function deadLinkPage(sentence: string): string {
  return page('Invitation not available', `<h1>Invitation not available</h1>
<p>${e(sentence)}</p>`);
}
