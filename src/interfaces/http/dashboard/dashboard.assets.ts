import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import type { ApiRequest, Next } from '../problem';

interface Asset {
  body: Buffer;
  type: string;
  headers?: Record<string, string>;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/**
 * The web dashboard's files, read once: the page, its scripts and style (`dir`, awf's
 * `dashboard/` folder), and Preact and htm as their packages ship them (ES modules, no build step, no CDN).
 * Answered only for these exact paths, GET or HEAD, before the token gate: they hold no data;
 * the page signs in to read any. Every other request goes on to the gate and the routes.
 */
export function serveDashboard(dir: string): (req: ApiRequest, res: ServerResponse, next: Next) => void {
  const assets = loadAssets(dir);
  return (req, res, next) => {
    const asset = req.method === 'GET' || req.method === 'HEAD' ? assets.get(pathOf(req.url)) : undefined;
    if (!asset) return next();
    res.writeHead(200, {
      'content-type': asset.type,
      'content-length': asset.body.length,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...asset.headers,
    });
    res.end(req.method === 'HEAD' ? undefined : asset.body);
  };
}

function loadAssets(own: string): Map<string, Asset> {
  const file = (path: string): Buffer => readFileSync(path);
  const page = file(join(own, 'index.html'));
  const assets = new Map<string, Asset>([
    ['/', { body: page, type: 'text/html; charset=utf-8', headers: pageHeaders(page.toString('utf8')) }],
  ]);
  for (const name of readdirSync(own).filter((n) => /\.(js|css)$/.test(n)))
    assets.set(`/assets/${name}`, { body: file(join(own, name)), type: name.endsWith('.css') ? CSS : JS });
  const vendor: Array<[string, Asset]> = [
    ['/assets/vendor/preact.mjs', { body: file(require.resolve('preact')), type: JS }],
    ['/assets/vendor/hooks.mjs', { body: file(require.resolve('preact/hooks')), type: JS }],
    // htm's `main` is CommonJS; its ES module sits beside it.
    ['/assets/vendor/htm.mjs', { body: file(join(dirname(require.resolve('htm')), 'htm.mjs')), type: JS }],
  ];
  for (const [path, asset] of vendor) assets.set(path, asset);
  return assets;
}

/**
 * The page may run only its own scripts and the one inline import map (by its hash), talk only
 * to this server, and be framed by no other site.
 */
function pageHeaders(html: string): Record<string, string> {
  const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const hash = createHash('sha256').update(importMap).digest('base64');
  return {
    'content-security-policy': [
      "default-src 'none'",
      `script-src 'self' 'sha256-${hash}'`,
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
  };
}

function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0];
}
