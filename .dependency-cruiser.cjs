// `npm run check:layers`: the layer table (scripts/layers/layer-table.cjs) applied to src/.
const { layerRules } = require('./scripts/layers/layer-table.cjs');

module.exports = {
  forbidden: layerRules('src'),
  options: {
    tsPreCompilationDeps: true, // `import type` counts: a type-only import is still a dependency
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage)/' },
    detectJSDocImports: false,
    moduleSystems: ['cjs', 'es6'],
    parser: 'tsc',
  },
};
