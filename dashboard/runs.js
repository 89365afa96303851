// Runs: every run the history holds (those of `awf run` too), newest first, refreshed every
// two seconds; filtered by status and workflow; a page at a time.
import { useEffect, useState } from 'preact/hooks';
import { api, duration, html, Problem, Status, time } from './api.js';

const STATUSES = ['', 'running', 'completed', 'failed', 'cancelled'];

/** Calls `load` now and every `ms` while the view is shown (and its arguments stay the same). */
export function usePolling(load, ms, deps) {
  useEffect(() => {
    let stopped = false;
    let timer;
    const tick = async () => {
      await load().catch(() => undefined);
      if (!stopped) timer = setTimeout(tick, ms);
    };
    tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, deps);
}

export function RunsView() {
  const [status, setStatus] = useState('');
  const [workflow, setWorkflow] = useState('');
  const [cursors, setCursors] = useState([null]);
  const [page, setPage] = useState(undefined);
  const [error, setError] = useState(undefined);
  const cursor = cursors[cursors.length - 1];
  usePolling(
    async () => {
      const q = new URLSearchParams({ limit: '25' });
      if (status) q.set('status', status);
      if (workflow.trim()) q.set('workflow', workflow.trim());
      if (cursor) q.set('cursor', cursor);
      try {
        setPage(await api('GET', `api/executions?${q}`));
        setError(undefined);
      } catch (err) {
        setError(err);
      }
    },
    2000,
    [status, workflow, cursor],
  );
  const filter = (set) => (e) => {
    set(e.target.value);
    setCursors([null]);
  };
  return html`<h1>Runs</h1>
    <form class="filters" role="search" onSubmit=${(e) => e.preventDefault()}>
      <label for="status-filter">Status</label>
      <select id="status-filter" value=${status} onChange=${filter(setStatus)}>
        ${STATUSES.map((s) => html`<option key=${s} value=${s}>${s || 'any'}</option>`)}
      </select>
      <label for="workflow-filter">Workflow</label>
      <input id="workflow-filter" value=${workflow} onChange=${filter(setWorkflow)} placeholder="any" />
    </form>
    <${Problem} error=${error} />
    ${page?.executions.length === 0 ? html`<p>No runs yet.</p>` : null}
    ${
      page?.executions.length
        ? html`<table class="runs">
            <thead>
              <tr>
                <th>Run</th>
                <th>Workflow</th>
                <th>Status</th>
                <th>Step</th>
                <th>Started</th>
                <th>Took</th>
              </tr>
            </thead>
            <tbody>
              ${page.executions.map(
                (r) =>
                  html`<tr key=${r.execution_id}>
                    <td>
                      <a href=${`#/runs/${r.execution_id}`}><code>${r.execution_id.slice(0, 8)}</code></a>
                    </td>
                    <td>${r.workflow_name}</td>
                    <td><${Status} status=${r.status} /></td>
                    <td>${r.current_step}</td>
                    <td>${time(r.started_at)}</td>
                    <td>${duration(r.duration_ms)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : null
    }
    <div class="actions">
      ${
        cursors.length > 1
          ? html`<button class="secondary" onClick=${() => setCursors(cursors.slice(0, -1))}>Newer</button>`
          : null
      }
      ${
        page?.next_cursor
          ? html`<button class="secondary" onClick=${() => setCursors([...cursors, page.next_cursor])}>Older</button>`
          : null
      }
    </div>`;
}
