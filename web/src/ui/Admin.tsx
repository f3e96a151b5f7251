/** Administration (administrators and owners): organization name and description, users (role, deactivate), invitations, channels. */
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app/app.js';

const ROLES: [number, string][] = [[100, 'Owner'], [200, 'Administrator'], [300, 'Moderator'], [400, 'Member'], [600, 'Guest']];

export function Admin({ app }: { app: App }) {
  app.watch('people', 'settings', 'channels');
  const [name, setName] = useState(app.realm.name);
  const [description, setDescription] = useState(app.realm.description);
  useEffect(() => (setName(app.realm.name), setDescription(app.realm.description)), [app.realm]);
  const [emails, setEmails] = useState('');
  const [invites, setInvites] = useState<{ id: number; email: string; expiry_date: number | null }[]>([]);
  const [done, setDone] = useState('');
  const run = (what: string, request: Promise<unknown>) => request.then(() => setDone(`${what} done`), (e: unknown) => app.fail(e));
  const loadInvites = () => app.api.get<{ invites: typeof invites }>('/invites').then((a) => setInvites(a.invites), () => {});
  useEffect(() => void loadInvites(), []);
  if (!app.isAdmin()) return <section class="page"><p>Only administrators can change the organization.</p></section>;
  return (
    <section class="page admin" aria-labelledby="admin-title">
      <h1 id="admin-title">Organization</h1>
      {done && <p role="status" class="saved">{done}</p>}
      <form onSubmit={(e) => (e.preventDefault(), run('Organization', app.api.patch('/realm', { name, description })))}>
        <label>Name <input value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
        <label>Description <textarea value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></label>
        <button type="submit">Save</button>
      </form>
      <h2>Invitations</h2>
      <form onSubmit={(e) => {
        e.preventDefault();
        const list = emails.split(/[\s,]+/).filter(Boolean).join(',');
        const streams = [...app.channels.values()].filter((c) => !c.invite_only).map((c) => c.stream_id);
        run('Invitation', app.api.post('/invites', { invitee_emails: list, stream_ids: streams, invite_expires_in_minutes: 10080 }).then(loadInvites));
      }}>
        <label>Emails <input value={emails} placeholder="one@example.com, two@example.com" onInput={(e) => setEmails(e.currentTarget.value)} /></label>
        <button type="submit">Invite</button>
      </form>
      <ul>{invites.map((i) => <li key={i.id}>{i.email} <button type="button" onClick={() => run('Revoke', app.api.del(`/invites/${i.id}`).then(loadInvites))}>Revoke</button></li>)}</ul>
      <h2>Users</h2>
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col" /></tr></thead>
        <tbody>
          {[...app.users.values()].filter((u) => !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name)).map((u) => (
            <tr key={u.user_id} class={u.is_active === false ? 'inactive' : ''}>
              <td>{u.full_name}</td>
              <td>{u.email}</td>
              <td>
                <select aria-label={`Role of ${u.full_name}`} value={String(u.role ?? 400)} disabled={u.user_id === app.selfId}
                  onChange={(e) => run('Role', app.api.patch(`/users/${u.user_id}`, { role: Number(e.currentTarget.value) }))}>
                  {ROLES.map(([value, label]) => <option value={value} key={value}>{label}</option>)}
                </select>
              </td>
              <td>
                {u.user_id !== app.selfId && u.is_active !== false && (
                  <button type="button" onClick={() => confirm(`Deactivate ${u.full_name}?`) && run('Deactivation', app.api.del(`/users/${u.user_id}`))}>Deactivate</button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Channels</h2>
      <ul>
        {[...app.channels.values()].sort((a, b) => a.name.localeCompare(b.name)).map((c) => (
          <li key={c.stream_id}>
            #{c.name} <button type="button" onClick={() => confirm(`Archive #${c.name}?`) && run('Archive', app.api.del(`/streams/${c.stream_id}`))}>Archive</button>
          </li>
        ))}
      </ul>
    </section>
  );
}
