// A collector that is down (issue #19): `awf run` of a 3-step workflow (a command step and two
// `script` agent steps, each through its own mcp-serve) with tracing off, and with only
// OTEL_EXPORTER_OTLP_ENDPOINT set to a port nobody listens on (traces and metrics on, every
// export refused), and to a listener that accepts connections and never answers (a mute
// collector). The target: the dead collector within 10% of tracing off; the mute one is shown.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { median, processMs } from './mcp-measure.mjs';

export async function deadCollectorBench({ main, work, notes, rounds = 5 }) {
  const target = join(work, 'project', 'file.txt');
  const agent = (next) => ({
    type: 'agent',
    provider: 'script',
    prompt: 'Read the file.',
    mcp_proxy: { enable: true },
    options: { calls: [{ tool: 'Read', args: { file_path: target } }] },
    on_success: next,
  });
  const file = join(work, 'three-steps.yaml');
  const workflow = {
    name: 'bench-three',
    version: '1.0',
    states: {
      initial: 'prepare',
      prepare: { type: 'step', command: 'true', on_success: 'review' },
      review: agent('check'),
      check: agent('done'),
      done: { type: 'terminal', status: 'success' },
    },
  };
  writeFileSync(file, JSON.stringify(workflow));
  const dead = `http://127.0.0.1:${await closedPort()}`;
  const mute = await muteListener();
  const kinds = {
    off: {},
    dead: { OTEL_EXPORTER_OTLP_ENDPOINT: dead },
    mute: { OTEL_EXPORTER_OTLP_ENDPOINT: mute.url },
  };
  const times = { off: [], dead: [], mute: [] };
  const order = ['off', 'dead', 'mute'];
  try {
    for (let i = 0; i <= rounds; i++) {
      for (const kind of i % 2 ? order : [...order].reverse()) {
        const r = await processMs(process.execPath, [main, 'run', file], {
          cwd: join(work, 'project'),
          env: { ...process.env, AWF_LOG_LEVEL: 'warn', ...kinds[kind] },
        });
        if (r.code !== 0) {
          notes.push(`dead collector: \`awf run\` with tracing ${kind} exited ${r.code}; row skipped.`);
          return null;
        }
        if (i > 0) times[kind].push(r.ms);
      }
    }
  } finally {
    mute.close();
  }
  const offMs = median(times.off);
  const deadMs = median(times.dead);
  const muteMs = median(times.mute);
  return { rounds, offMs, deadMs, muteMs, ratio: deadMs / offMs, muteRatio: muteMs / offMs };
}

/** A collector that accepts connections and never answers them. */
async function muteListener() {
  const sockets = [];
  const server = createServer((s) => sockets.push(s.on('error', () => undefined)));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** A port that was free a moment ago: connecting to it is refused, as to a collector that is down. */
function closedPort() {
  return new Promise((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}
