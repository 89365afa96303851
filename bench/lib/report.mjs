// The one table: figures side by side, ratios, and the issue's targets checked on this run.
import { pairedRatio } from './mcp-measure.mjs';
import { SERVE_TARGETS, serveTable } from './serve-bench.mjs';
import { checksTable, checksTargets } from './checks-bench.mjs';
import { sharedHistoryTable, sharedHistoryTargets } from './shared-history-bench.mjs';
import { queueTable, queueTargets } from './queue-bench.mjs';
import { mcpHttpTable } from './mcp-http-bench.mjs';
const f = (v, d = 1) => (v === undefined || v === null || Number.isNaN(v) ? '—' : v.toFixed(d));
const r = (v) => (v === undefined || Number.isNaN(v) ? '—' : `${v.toFixed(2)}×`);

export function printReport({
  meta,
  rows,
  cliStart,
  search,
  steps,
  history,
  sharedHistory,
  upstreams,
  sandbox,
  collector,
  serve,
  queue,
  mcpHttp,
  checks,
  notes,
}) {
  const by = Object.fromEntries(rows.map((row) => [row.id, row]));
  const { bare, fs, awf } = by;
  const out = [];
  out.push(
    `awf bench ${meta.date} · node ${meta.node} · ${meta.cpus} cpus · load ${meta.loadavgStart.join('/')} → ${meta.loadavgEnd.join('/')}`,
  );
  out.push(
    `cold start: median of ${meta.coldRounds} alternating; calls: ${meta.calls} per server per round, servers taking turns in blocks of 50 (the order shuffled each turn), median of ${meta.loadRounds} rounds; file ${meta.fixtureBytes} B; awf launch: ${meta.awfLaunch}`,
  );
  out.push('');
  out.push(
    '| server | tool | initialize ms (min) | × fs | tools/list ms | call p50 ms | p99 ms | calls/s | × bare | 1000 in flight, calls/s | peak RSS MB |',
  );
  out.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    out.push(
      `| ${row.label} | ${row.tool ?? '—'} | ${f(row.coldMs, 0)}${row.coldMin ? ` (${f(row.coldMin, 0)})` : ''} | ${fs ? r(row.coldMs / fs.coldMs) : '—'} | ${f(row.listMs, 2)} | ${f(row.p50, 2)} | ${f(row.p99, 2)} | ${f(row.callsPerSec, 0)} | ${bare && row.callsPerSec ? r(row.callsPerSec / bare.callsPerSec) : '—'} | ${f(row.concurrentCallsPerSec, 0)} | ${f(row.rssMb, 0)} |`,
    );
  }
  if (cliStart) {
    out.push('');
    out.push('| start-up (whole process, median) | ms | × node -e 0 | target |');
    out.push('| --- | --- | --- | --- |');
    for (const row of cliStart)
      out.push(
        `| ${row.label} | ${f(row.ms, 0)} | ${row.id === 'floor' ? '1' : r(row.ratio)} | ${row.target ? `≤ ${row.target}×` : ''} |`,
      );
  }
  if (search?.grep || search?.glob) {
    out.push('');
    out.push(
      `| search over ${search.tree} (${search.files ?? '?'} files) | awf ms | baseline ms | × baseline | result lines awf / baseline |`,
    );
    out.push('| --- | --- | --- | --- | --- |');
    for (const [name, row] of [
      ['Grep', search.grep],
      ['Glob', search.glob],
    ]) {
      if (row)
        out.push(
          `| ${name} \`${row.pattern}\` vs ${row.baseline} | ${f(row.awfMs, 0)} | ${f(row.baselineMs, 0)} | ${r(row.ratio)} | ${row.awfLines} / ${row.baselineLines} |`,
        );
    }
  }
  if (upstreams) out.push('', ...upstreamTable(upstreams));
  if (sandbox) {
    out.push('');
    out.push(`| sandbox (${sandbox.calls} sequential calls) | awf p50 ms | server-filesystem | before build |`);
    out.push('| --- | --- | --- | --- |');
    out.push(
      `| Bash \`true\`, unconfined (own PID namespace where unshare works) | ${f(sandbox.bash.unconfined, 2)} | | |`,
    );
    if (sandbox.bash.bwrap !== undefined)
      out.push(
        `| Bash \`true\` under bubblewrap (bash_sandbox; +${f(sandbox.bash.addedMs, 2)} ms) | ${f(sandbox.bash.bwrap, 2)} | | |`,
      );
    for (const row of sandbox.resolution)
      out.push(
        `| ${row.label} | ${f(row.awf, 3)} | ${row.fs === undefined ? '—' : f(row.fs, 3)} | ${row.before === undefined ? '—' : f(row.before, 3)} |`,
      );
  }
  if (steps) {
    out.push('');
    out.push(
      `per-step overhead: ${steps.steps} script steps (one call each, via the proxy) ${f(steps.scriptsMs, 0)} ms vs ${steps.steps} command steps ${f(steps.commandsMs, 0)} ms → ${f(steps.perStepMs, 0)} ms per step`,
    );
  }
  if (history) {
    out.push('');
    out.push(
      `history: \`awf history -f json\` of ${history.runs} runs ${f(history.allMs, 0)} ms, of the last 20 ${f(history.recentMs, 0)} ms, vs \`awf --version\` ${f(history.versionMs, 0)} ms (set-up: ${f(history.fillMsPerRun, 0)} ms per \`awf run\`, ${history.parallel} at a time)`,
    );
  }
  if (collector) {
    out.push('');
    out.push(
      `dead collector: 3-step \`awf run\` (2 proxied steps), median of ${collector.rounds} alternating: tracing off ${f(collector.offMs, 0)} ms, OTEL_EXPORTER_OTLP_ENDPOINT at a closed port ${f(collector.deadMs, 0)} ms → ${r(collector.ratio)}, at a collector that accepts and never answers ${f(collector.muteMs, 0)} ms → ${r(collector.muteRatio)}`,
    );
  }
  if (serve) out.push('', ...serveTable(serve));
  if (sharedHistory) out.push('', ...sharedHistoryTable(sharedHistory));
  if (queue) out.push('', ...queueTable(queue));
  if (mcpHttp) out.push('', ...mcpHttpTable(mcpHttp));
  if (checks) out.push('', ...checksTable(checks));
  const trace = by['awf-trace'];
  const metricsOn = by['awf-metrics'];
  const policyOn = by['awf-policy'];
  const targets = [
    ...(cliStart ?? [])
      .filter((row) => row.target)
      .map((row) => target(`${row.label} ≤ ${row.target}× node -e 0`, row.ratio, (x) => x <= row.target)),
    target('mcp-serve initialize ≤ 0.75× server-filesystem', awf && fs && awf.coldMs / fs.coldMs, (x) => x <= 0.75),
    target('calls/s ≥ 0.9× bare SDK', awf && bare && awf.callsPerSec / bare.callsPerSec, (x) => x >= 0.9),
    target('call p50 ≤ bare + 5%', awf && bare && awf.p50 / bare.p50, (x) => x <= 1.05),
    target('peak RSS ≤ server-filesystem', awf && fs && awf.rssMb / fs.rssMb, (x) => x <= 1),
    target('Grep ≤ 1.5× rg', search?.grep?.ratio, (x) => x <= 1.5),
    target('Glob ≤ 2× find', search?.glob?.ratio, (x) => x <= 2),
    target(
      'tracing on (file) ≥ 0.90× calls/s of tracing off',
      meta.spansWritten && trace && awf ? trace.callsPerSec / awf.callsPerSec : undefined,
      (x) => x >= 0.9,
    ),
    target('dead collector ≤ 1.10× tracing off (3-step run)', collector?.ratio, (x) => x <= 1.1),
    ...checksTargets(checks, target),
    target(
      'metrics on ≥ 0.90× calls/s of metrics off',
      metricsOn && awf ? metricsOn.callsPerSec / awf.callsPerSec : undefined,
      (x) => x >= 0.9,
    ),
    target(
      'policy on ≥ 0.95× calls/s of policy off',
      policyOn && awf ? policyOn.callsPerSec / awf.callsPerSec : undefined,
      (x) => x >= 0.95,
    ),
    target(
      'the same, block by block (median of paired 50-call blocks)',
      policyOn && awf ? pairedRatio(policyOn.blockMs, awf.blockMs) : undefined,
      (x) => x >= 0.95,
    ),
    target(
      `20 runs over HTTP at once ≤ ${SERVE_TARGETS.atOnce}× 20 \`awf run\` at once`,
      serve && serve.atOnce.httpMs / serve.atOnce.cliMs,
      (x) => x <= SERVE_TARGETS.atOnce,
    ),
    target(
      `50 SSE subscribers: every event to all within ${SERVE_TARGETS.spreadMs} ms (as a ratio of ${SERVE_TARGETS.spreadMs} ms)`,
      serve && serve.fanOut.spreadMaxMs / SERVE_TARGETS.spreadMs,
      (x) => x <= 1,
    ),
    target(
      `GET /api/executions p50, 10,000 runs, ≤ ${SERVE_TARGETS.listMs} ms (as a ratio of ${SERVE_TARGETS.listMs} ms)`,
      serve && serve.list.p50 / SERVE_TARGETS.listMs,
      (x) => x <= 1,
    ),
    ...sharedHistoryTargets(sharedHistory, target),
    ...queueTargets(queue, target),
  ];
  out.push('');
  out.push('| target | ratio this run | met |');
  out.push('| --- | --- | --- |');
  for (const t of targets)
    out.push(
      `| ${t.name} | ${t.ratio === undefined ? 'not measured' : r(t.ratio)} | ${t.met === undefined ? '—' : t.met ? 'yes' : 'NO'} |`,
    );
  if (notes.length) {
    out.push('');
    for (const n of notes) out.push(`note: ${n}`);
  }
  process.stdout.write(out.join('\n') + '\n');
  return { targets, text: out.join('\n') };
}

function target(name, ratio, ok) {
  const valid = typeof ratio === 'number' && Number.isFinite(ratio);
  return { name, ratio: valid ? ratio : undefined, met: valid ? ok(ratio) : undefined };
}

/**
 * The issue-18 target is a difference: through awf next to its reference, the same SDK client
 * talking to the same server directly, measured in the same turns. The relay row says how much
 * of it is the extra process on the way by itself.
 */
export function upstreamTable(u) {
  const met = u.addedP50Ms <= 0.3 ? 'met' : 'NOT met';
  const row = (label, s) =>
    s ? `| ${label} | ${f(s.p50, 3)} | ${f(s.p50 - u.direct.p50, 3)} | ${f(s.p99, 3)} |` : undefined;
  return [
    `| other MCP servers: server-everything \`echo\` over stdio, SDK client, ${u.calls} × ${u.rounds} calls, turns of ${u.block ?? '—'} | p50 ms | added p50 ms | p99 ms |`,
    '| --- | --- | --- | --- |',
    row('direct (the reference)', u.direct),
    row('through a relay that only forwards bytes (the extra hop alone)', u.relay),
    `| through awf mcp-serve, logging + audit on (target: added ≤ 0.3, ${met}) | ${f(u.proxied.p50, 3)} | ${f(u.addedP50Ms, 3)} | ${f(u.proxied.p99, 3)} |`,
    row('through awf mcp-serve, tracing (file) + policy on too', u.awfFull),
    row('through awf mcp-serve of the --before build, logging + audit on', u.before),
    `| MCP SDK client modules loaded by a step without upstreams | ${u.withoutUpstreams ?? '—'} | | |`,
    u.pinCheck
      ? `| tool pins: the check of one listing (${u.pinCheck.tools} tools; per call: none) | ${f(u.pinCheck.p50, 3)} | | |`
      : undefined,
  ].filter(Boolean);
}
