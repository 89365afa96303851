// Jest on Node 20 cannot require an ES module: the packages that ship only ESM (the ACP SDK)
// are compiled to CommonJS for the tests by esbuild, as the bundle's build does for awf itself.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, file) {
    const { code, map } = transformSync(source, {
      format: 'cjs',
      loader: 'js',
      target: 'node20',
      sourcefile: file,
      sourcemap: 'external',
    });
    return { code, map };
  },
};
