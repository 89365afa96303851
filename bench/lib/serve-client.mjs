// A plain node:http client of `awf serve` for the bench: JSON calls, and SSE streams read to their end.
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

/** The run's SSE stream read to its end: the `data:` of each frame, stamped as it arrived. */
export function events(url, id) {
  return new Promise((resolve, reject) => {
    request(new URL(`/api/executions/${id}/events`, url), (res) => {
      const got = { connectedAt: performance.now(), events: [] };
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        const at = performance.now();
        const frames = (text + c).split('\n\n');
        text = frames.pop();
        for (const frame of frames) {
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (data) got.events.push({ ...JSON.parse(data.slice(6)), at });
        }
      });
      res.on('end', () => resolve(got));
    })
      .on('error', reject)
      .end();
  });
}

export function call(url, method, path, body, agent) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {};
    const req = request(new URL(path, url), { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}
