// The dashboard's shell: sign-in, the navigation and a route per view, read from the URL's hash
// (#/workflows, #/workflows/<scope>/<name>, #/runs, #/runs/<id>, #/approvals).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, html, signIn, signOut, SignInNeeded } from './api.js';
import { ApprovalsView } from './approvals.js';
import { RunView } from './run.js';
import { RunsView } from './runs.js';
import { WorkflowsView, WorkflowView } from './workflows.js';

function useRoute() {
  const read = () => (location.hash.replace(/^#\/?/, '') || 'workflows').split('/').map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

function SignIn({ onDone }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const submit = async (e) => {
    e.preventDefault();
    try {
      await signIn(token.trim());
      onDone();
    } catch {
      setError('That token is not one this server accepts.');
    }
  };
  return html`<main class="sign-in">
    <h1>awf</h1>
    <form onSubmit=${submit}>
      <label for="token">API token</label>
      <input
        id="token"
        type="password"
        autocomplete="current-password"
        value=${token}
        onInput=${(e) => setToken(e.target.value)}
        required
        autofocus
      />
      <button type="submit">Sign in</button>
      ${error ? html`<p class="problem" role="alert">${error}</p>` : null}
    </form>
    <p class="hint">The token is exchanged once for a session cookie; the page does not keep it.</p>
  </main>`;
}

function View({ route }) {
  const [view, a, b] = route;
  if (view === 'workflows' && a && b) return html`<${WorkflowView} scope=${a} name=${b} />`;
  if (view === 'runs' && a) return html`<${RunView} id=${a} />`;
  if (view === 'runs') return html`<${RunsView} />`;
  if (view === 'approvals') return html`<${ApprovalsView} />`;
  return html`<${WorkflowsView} />`;
}

function App() {
  const route = useRoute();
  const [who, setWho] = useState(undefined);
  const check = () =>
    api('GET', 'api/session').then(
      (s) => setWho(s.who),
      (err) => setWho(err instanceof SignInNeeded ? null : 'local'),
    );
  useEffect(() => {
    check();
    // A session that ends (expired, server restarted) sends the page back to the sign-in form.
    const out = () => setWho(null);
    addEventListener('awf:sign-in', out);
    return () => removeEventListener('awf:sign-in', out);
  }, []);
  if (who === undefined) return html`<p class="loading">Loading…</p>`;
  if (who === null) return html`<${SignIn} onDone=${check} />`;
  const link = (to, label) =>
    html`<a href=${`#/${to}`} aria-current=${route[0] === to ? 'page' : undefined}>${label}</a>`;
  return html`<header>
      <span class="brand">awf</span>
      <nav aria-label="Main">
        ${link('workflows', 'Workflows')} ${link('runs', 'Runs')} ${link('approvals', 'Approvals')}
      </nav>
      <span class="who">${who}</span>
      ${
        who !== 'local'
          ? html`<button class="link" onClick=${() => signOut().finally(() => setWho(null))}>Sign out</button>`
          : null
      }
    </header>
    <main><${View} route=${route} /></main>`;
}

render(html`<${App} />`, document.getElementById('app'));
