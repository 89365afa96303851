// Runs first in the snapshot bundle (scripts/build-bundle.mjs prepends it). V8 cannot
// serialize ICU objects, and some dependencies make one at import (Nest's Logger builds an
// Intl.DateTimeFormat). While the snapshot is built, Intl constructors return stand-ins that
// make the real object on first use, which is at run time; once deserialized, the real
// constructors are back.
'use strict';
const v8 = require('node:v8');
if (v8.startupSnapshot?.isBuildingSnapshot()) {
  const names = [
    'DateTimeFormat',
    'NumberFormat',
    'Collator',
    'PluralRules',
    'RelativeTimeFormat',
    'ListFormat',
    'Segmenter',
    'DisplayNames',
  ];
  const originals = {};
  for (const name of names) {
    const Real = Intl[name];
    if (typeof Real !== 'function') continue;
    originals[name] = Real;
    Intl[name] = function LazyIntl(...args) {
      let real;
      const get = () => (real ??= new Real(...args));
      return new Proxy(Object.create(Real.prototype), {
        get(_, key) {
          const value = get()[key];
          return typeof value === 'function' ? value.bind(get()) : value;
        },
      });
    };
    Intl[name].supportedLocalesOf = Real.supportedLocalesOf;
  }
  v8.startupSnapshot.addDeserializeCallback(() => Object.assign(Intl, originals));
}
