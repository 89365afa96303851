'use strict';

/** Greets someone by name; an empty name greets the world. */
function greet(name) {
  const who = String(name || '').trim() || 'world';
  return `Hello, ${who}!`;
}

module.exports = { greet };
