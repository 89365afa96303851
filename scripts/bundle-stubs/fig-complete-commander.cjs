// Stands in for `@fig/complete-commander` in the awf bundle: nest-commander loads it for
// its `completion` option (Fig shell completion specs), which awf never sets. Bundled, it
// would inline prettier (about 5 MB).
'use strict';
module.exports = function figCompletion() {
  throw new Error('shell completion specs are not built into awf');
};
module.exports.default = module.exports;
