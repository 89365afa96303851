'use strict';

function sum(values) {
  return values.reduce((total, v) => total + v, 0);
}

// TODO: an empty list should average to 0
function average(values) {
  return sum(values) / values.length;
}

module.exports = { sum, average };
