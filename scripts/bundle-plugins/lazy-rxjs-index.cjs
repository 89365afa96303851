// rxjs's two index files (`rxjs` and `rxjs/operators`, both required by Nest) require all of
// its ~270 modules at once, though Nest runs a handful. scripts/build-bundle.mjs rewrites them
// in the startup snapshot's bundle only: each `var x_1 = require("...")` becomes a require on
// first use of one of its exports. Same modules, same export objects, evaluated when used, so
// their objects are not in the heap of every start (docs/adr/097-perf-snapshot-heap.md).
// The indexes are tsc output of one regular shape; a line of any other shape throws, which
// fails the build rather than leaving a changed rxjs half-lazy or wrong.
'use strict';

const RXJS_INDEX = /[\\/]node_modules[\\/]rxjs[\\/]dist[\\/]cjs[\\/](operators[\\/])?index\.js$/;

const REQUIRE = /^var (\w+) = require\(("[^"]+")\);$/;
const GETTER =
  /^(Object\.defineProperty\(exports, "\w+", \{ enumerable: true, get: function \(\) \{ return )(\w+)(\.\w+; \} \}\);)$/;
// tslib's export helpers, the `exports.x = ... = void 0;` list, and the type-only module (empty at run time).
const KEPT = [
  /^"use strict";$/,
  /^var __(createBinding|exportStar) = .*$/,
  /^\s+\S.*$/,
  /^\}\)?\)?;$/,
  /^\}\) : \(function\(o, m, k, k2\) \{$/,
  /^Object\.defineProperty\(exports, "__esModule", \{ value: true \}\);$/,
  /^(exports\.\w+ = )+void 0;$/,
  /^__exportStar\(require\("\.\/internal\/types"\), exports\);$/,
  /^\/\/# sourceMappingURL=.*$/,
  /^$/,
];

/** The index's source with its requires made lazy; throws on any line it does not know. */
function lazyRxjsIndex(source, file) {
  const lazy = new Set();
  const lines = source.split('\n').map((line) => {
    const req = REQUIRE.exec(line);
    if (req) {
      const [, name, path] = req;
      lazy.add(name);
      return `var ${name}$; function ${name}() { return ${name}$ || (${name}$ = require(${path})); }`;
    }
    const get = GETTER.exec(line);
    if (get && lazy.has(get[2])) return `${get[1]}${get[2]}()${get[3]}`;
    if (KEPT.some((re) => re.test(line))) return line;
    throw new Error(
      `lazy-rxjs-index: unexpected line in ${file}: ${line.slice(0, 120)} (rxjs changed its index files; update scripts/bundle-plugins/lazy-rxjs-index.cjs)`,
    );
  });
  if (lazy.size < 50)
    throw new Error(`lazy-rxjs-index: only ${lazy.size} requires found in ${file} (rxjs changed its index files)`);
  return lines.join('\n');
}

module.exports = { RXJS_INDEX, lazyRxjsIndex };
