// Stands in for `cosmiconfig` in the awf bundle. nest-commander uses it only for its
// `usePlugins` option (CLI plugins found in .awfrc files), which awf never sets: awf's own
// extension point is `extensions:` in .awf/config.yaml. Bundled, it would inline its
// TypeScript and prettier loaders (about 15 MB).
'use strict';
module.exports = {
  cosmiconfig() {
    throw new Error(
      'nest-commander plugins (usePlugins) are not supported by awf; use extensions: in .awf/config.yaml',
    );
  },
};
