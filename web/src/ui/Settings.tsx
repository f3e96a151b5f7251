/** Personal settings: name, avatar, status, theme, notifications; and subscriptions (subscribe, create, colour, mute, pin). */
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app/app.js';
import { askNotificationPermission } from '../app/notify.js';

export function Settings({ app }: { app: App }) {
  app.watch('settings', 'people');
  const me = app.user(app.selfId);
  const [name, setName] = useState(me?.full_name ?? '');
  useEffect(() => setName(me?.full_name ?? ''), [me?.full_name]);
  const [status, setStatus] = useState('');
  const [saved, setSaved] = useState('');
  const run = (what: string, request: Promise<unknown>) =>
    request.then(() => setSaved(`${what} saved`), (e: unknown) => app.fail(e));
  const setting = (property: string, value: unknown) => run('Setting', app.api.patch('/settings', { [property]: value as string }));
  return (
    <section class="page settings" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      {saved && <p role="status" class="saved">{saved}</p>}
      <h2>Profile</h2>
      <form onSubmit={(e) => (e.preventDefault(), run('Name', app.api.patch('/settings', { full_name: name })))}>
        <label>Name <input value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
        <button type="submit">Save name</button>
      </form>
      <label>
        Avatar
        <input type="file" accept="image/*" onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (!file) return;
          run('Avatar', app.api.upload(file, '/users/me/avatar'));
        }} />
      </label>
      <form onSubmit={(e) => (e.preventDefault(), run('Status', app.api.post('/users/me/status', { status_text: status })))}>
        <label>Status <input value={status} placeholder="What are you up to?" onInput={(e) => setStatus(e.currentTarget.value)} /></label>
        <button type="submit">Set status</button>
      </form>
      <h2>Display</h2>
      <label>
        Theme
        <select value={String(app.userSettings.color_scheme ?? 1)} onChange={(e) => setting('color_scheme', Number(e.currentTarget.value))}>
          <option value="1">Automatic</option>
          <option value="3">Light</option>
          <option value="2">Dark</option>
        </select>
      </label>
      <h2>Notifications</h2>
      <label>
        <input type="checkbox" checked={app.userSettings.enable_desktop_notifications !== false}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            if (on) void askNotificationPermission();
            void setting('enable_desktop_notifications', on);
          }} />
        Desktop notifications for direct messages and mentions
      </label>
      <label>
        <input type="checkbox" checked={app.userSettings.enable_sounds !== false} onChange={(e) => setting('enable_sounds', e.currentTarget.checked)} />
        Sounds
      </label>
      <Subscriptions app={app} />
    </section>
  );
}

function Subscriptions({ app }: { app: App }) {
  app.watch('channels');
  const [newName, setNewName] = useState('');
  const property = (streamId: number, name: string, value: unknown) =>
    app.api.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property: name, value }] }).catch((e) => app.fail(e));
  const unsubscribed = [...app.channels.values()].filter((c) => !app.subscriptions.has(c.stream_id));
  return (
    <>
      <h2>Channels</h2>
      <form onSubmit={(e) => (e.preventDefault(), newName.trim() && app.api.post('/users/me/subscriptions', { subscriptions: [{ name: newName.trim() }] }).then(() => setNewName(''), (x) => app.fail(x)))}>
        <label>New channel <input value={newName} onInput={(e) => setNewName(e.currentTarget.value)} /></label>
        <button type="submit">Create</button>
      </form>
      <table class="subs">
        <thead><tr><th scope="col">Channel</th><th scope="col">Colour</th><th scope="col">Muted</th><th scope="col">Pinned</th><th scope="col" /></tr></thead>
        <tbody>
          {[...app.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name)).map((s) => (
            <tr key={s.stream_id}>
              <td>#{s.name}</td>
              <td><input type="color" aria-label={`Colour of ${s.name}`} value={s.color} onChange={(e) => property(s.stream_id, 'color', e.currentTarget.value)} /></td>
              <td><input type="checkbox" aria-label={`Mute ${s.name}`} checked={s.is_muted} onChange={(e) => property(s.stream_id, 'is_muted', e.currentTarget.checked)} /></td>
              <td><input type="checkbox" aria-label={`Pin ${s.name}`} checked={s.pin_to_top} onChange={(e) => property(s.stream_id, 'pin_to_top', e.currentTarget.checked)} /></td>
              <td><button type="button" onClick={() => app.api.del('/users/me/subscriptions', { subscriptions: [s.name] }).catch((e) => app.fail(e))}>Unsubscribe</button></td>
            </tr>
          ))}
          {unsubscribed.map((c) => (
            <tr key={c.stream_id} class="unsubscribed">
              <td>#{c.name}</td><td /><td /><td />
              <td><button type="button" onClick={() => app.api.post('/users/me/subscriptions', { subscriptions: [{ name: c.name }] }).catch((e) => app.fail(e))}>Subscribe</button></td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
