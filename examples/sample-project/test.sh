#!/bin/sh
# The sample project's checks: plain node, no dependencies.
node -e '
const assert = require("node:assert");
const { greet } = require("./src/greet");
const { sum, average } = require("./src/math");
assert.strictEqual(greet("Ada"), "Hello, Ada!");
assert.strictEqual(greet(""), "Hello, world!");
assert.strictEqual(sum([1, 2, 3]), 6);
assert.strictEqual(average([2, 4]), 3);
assert.strictEqual(average([]), 0, "average([]) should be 0");
console.log("all 5 checks passed");
'
