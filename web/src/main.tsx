/** The web client's entry: the sign-in page, or the signed-in client with its live connection. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { loadSession, saveSession, type Credentials } from './api/client.js';
import { App } from './app/app.js';
import { startNotifications } from './app/notify.js';
import { applyTheme } from './app/theme.js';
import { Login } from './ui/Login.js';
import { Shell } from './ui/Shell.js';
import './styles.css';

function Root() {
  const [credentials, setCredentials] = useState<Credentials | undefined>(loadSession());
  const [app, setApp] = useState<App | undefined>(undefined);

  const signOut = () => {
    saveSession(undefined);
    setCredentials(undefined);
    history.replaceState(null, '', '/');
  };

  useEffect(() => {
    if (!credentials?.userId) {
      setApp(undefined);
      return;
    }
    const next = new App({ ...credentials, userId: credentials.userId }, signOut);
    startNotifications(next);
    next.start();
    setApp(next);
    return () => next.stop();
  }, [credentials]);

  useEffect(() => applyTheme(app), [app, app?.revision.value]);
  useEffect(() => {
    // "Automatic" follows the system's scheme as it changes.
    const media = matchMedia('(prefers-color-scheme: dark)');
    const follow = () => applyTheme(app);
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, [app]);

  if (!credentials) {
    return <Login onSignedIn={(c) => (saveSession(c), setCredentials(c))} />;
  }
  if (!app) return <div class="loading" role="status">Loading…</div>;
  return <Shell app={app} onSignOut={signOut} />;
}

render(<Root />, document.getElementById('app')!);
