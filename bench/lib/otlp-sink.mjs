// An OTLP/HTTP endpoint for the bench's metrics-on row: takes every POST and answers 200 with an
// empty body (an empty export response), so the exporter's work is measured, not a collector's.
import { createServer } from 'node:http';

export async function startOtlpSink() {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests: () => requests,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
