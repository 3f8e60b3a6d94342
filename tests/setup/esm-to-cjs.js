// Jest's module registry loads CommonJS only on this Node (it supports require(esm) from Node
// 24.9: https://jestjs.io/docs/ecmascript-modules#require-of-esm), while Node 20.19+ itself
// requires an ES module as the built service does. The ES-module-only packages the service uses
// (jose) are compiled to CommonJS for the tests here, and nowhere else.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: 'js',
      format: 'cjs',
      target: 'node20',
      sourcefile: filename,
      sourcemap: 'external',
    });
    return { code, map };
  },
};
