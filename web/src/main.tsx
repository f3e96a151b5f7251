/** The web client's entry: the sign-in page, or the signed-in client with its live connection. */
import { render } from 'preact';
import { effect } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadSession, saveSession, type Credentials } from './api/client.js';
import { App } from './app/app.js';
import { startNotifications } from './app/notify.js';
import { applyTheme } from './app/theme.js';
import { Login } from './ui/Login.js';
import { Shell } from './ui/Shell.js';
import './styles.css';

/** A signed-in client, started: its registration and first page are on their way. */
function begin(credentials: Credentials & { userId: number }, signOut: () => void): App {
  const app = new App(credentials, signOut);
  startNotifications(app);
  app.start();
  return app;
}

function Root() {
  const [credentials, setCredentials] = useState<Credentials | undefined>(loadSession());

  const signOut = () => {
    saveSession(undefined);
    setCredentials(undefined);
    history.replaceState(null, '', '/');
  };

  // A saved session starts its client during the first render, not in an effect (effects run
  // after the first paint): POST /register and the first page leave a frame or more sooner.
  const [app, setApp] = useState<App | undefined>(() => (credentials?.userId ? begin({ ...credentials, userId: credentials.userId }, signOut) : undefined));
  const startedEarly = useRef(app);

  useEffect(() => {
    const early = startedEarly.current;
    startedEarly.current = undefined;
    if (!credentials?.userId) {
      setApp(undefined);
      return;
    }
    const next = early ?? begin({ ...credentials, userId: credentials.userId }, signOut);
    setApp(next);
    return () => next.stop();
  }, [credentials]);

  // The theme follows the settings through an effect, not a read in this render (which would
  // re-render the whole page when a setting changes).
  useEffect(() => {
    if (!app) return applyTheme(app);
    return effect(() => {
      app.watch('settings');
      applyTheme(app);
    });
  }, [app]);
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
