// Workflows: the list, and one workflow's form made from its inputs (validate, run).
import { useEffect, useState } from 'preact/hooks';
import { api, html, Problem } from './api.js';

export function WorkflowsView() {
  const [list, setList] = useState(undefined);
  const [error, setError] = useState(undefined);
  useEffect(() => {
    api('GET', 'api/workflows').then((b) => setList(b.workflows), setError);
  }, []);
  return html`<h1>Workflows</h1>
    <${Problem} error=${error} />
    ${list === undefined && !error ? html`<p class="loading">Loading…</p>` : null}
    ${list?.length === 0 ? html`<p>No workflows found in this project.</p>` : null}
    ${
      list?.length
        ? html`<table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Description</th>
                <th>Version</th>
                <th>Found in</th>
              </tr>
            </thead>
            <tbody>
              ${list.map(
                (w) =>
                  html`<tr key=${w.scope + w.name}>
                    <td><a href=${`#/workflows/${w.scope}/${encodeURIComponent(w.name)}`}>${w.name}</a></td>
                    <td>${w.description}</td>
                    <td>${w.version}</td>
                    <td>${w.scope}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : null
    }`;
}

export function WorkflowView({ scope, name }) {
  const base = `api/workflows/${encodeURIComponent(scope)}/${encodeURIComponent(name)}`;
  const [wf, setWf] = useState(undefined);
  const [values, setValues] = useState({});
  const [error, setError] = useState(undefined);
  const [verdict, setVerdict] = useState(undefined);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api('GET', base).then((w) => {
      setWf(w);
      setValues(Object.fromEntries(w.Inputs.map((i) => [i.Name, i.Default === null ? '' : String(i.Default)])));
    }, setError);
  }, [base]);
  const act = async (what) => {
    setBusy(true);
    setError(undefined);
    setVerdict(undefined);
    try {
      if (what === 'validate') {
        await api('POST', `${base}/validate`);
        setVerdict('valid');
      } else {
        const inputs = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
        const started = await api('POST', `${base}/run`, { inputs });
        location.hash = `#/runs/${started.execution_id}`;
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (!wf)
    return html`<h1>${name}</h1>
      <${Problem} error=${error} />`;
  return html`<h1>${wf.Name}</h1>
    ${wf.Description ? html`<p>${wf.Description}</p>` : null}
    <form class="inputs" onSubmit=${(e) => (e.preventDefault(), act('run'))}>
      ${wf.Inputs.length === 0 ? html`<p>This workflow takes no inputs.</p>` : null}
      ${wf.Inputs.map(
        (i) =>
          html`<${InputField}
            key=${i.Name}
            input=${i}
            value=${values[i.Name] ?? ''}
            onChange=${(v) => setValues({ ...values, [i.Name]: v })}
          />`,
      )}
      <div class="actions">
        <button type="submit" disabled=${busy}>Run</button>
        <button type="button" class="secondary" disabled=${busy} onClick=${() => act('validate')}>Validate</button>
      </div>
    </form>
    ${verdict === 'valid' ? html`<p class="ok" role="status">The workflow is valid.</p>` : null}
    <${Problem} error=${error} />
    <h2>Steps</h2>
    <ol class="steps">
      ${Object.values(wf.Steps).map((s) => html`<li key=${s.Name}><code>${s.Name}</code> ${s.Type}</li>`)}
    </ol>`;
}

function InputField({ input, value, onChange }) {
  const id = `input-${input.Name}`;
  const choices = input.Validation?.enum ?? input.Validation?.Enum;
  const label = html`<label for=${id}
    >${input.Name}${input.Required ? html` <span aria-hidden="true">*</span>` : ''}</label
  >`;
  const help = input.Description ? html`<small id=${`${id}-help`}>${input.Description}</small>` : null;
  const common = { id, required: input.Required, 'aria-describedby': input.Description ? `${id}-help` : undefined };
  let field;
  if (choices?.length)
    field = html`<select ...${common} value=${value} onChange=${(e) => onChange(e.target.value)}>
      <option value="">—</option>
      ${choices.map((c) => html`<option key=${c} value=${c}>${c}</option>`)}
    </select>`;
  else if (input.Type === 'boolean')
    field = html`<select ...${common} value=${value} onChange=${(e) => onChange(e.target.value)}>
      <option value="">—</option>
      <option value="true">true</option>
      <option value="false">false</option>
    </select>`;
  else
    field = html`<input
      ...${common}
      type=${input.Secret ? 'password' : input.Type === 'integer' ? 'number' : 'text'}
      value=${value}
      onInput=${(e) => onChange(e.target.value)}
    />`;
  return html`<div class="field">${label}${field}${help}</div>`;
}
