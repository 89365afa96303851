// A key-value store in a JSON file: inputs, validation and errors. The file is the Init
// config `file` (plugins.json), else $AWF_KV_FILE, else kv-store.json in this folder.
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname, resolve } = require('node:path');
const { serve } = require('awf/plugin-sdk');

const KEY = /^[A-Za-z0-9_.:-]{1,128}$/;
let file = resolve(process.env.AWF_KV_FILE || 'kv-store.json');

function load() {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return {};
    throw new Error(`store ${file} is unreadable: ${err.message}`);
  }
}

function save(store) {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(store, null, 2) + '\n');
  renameSync(temp, file);
}

function checkKey(key) {
  if (!KEY.test(key)) throw new Error(`invalid key ${JSON.stringify(key)}: use 1-128 letters, digits, "_", ".", ":" or "-"`);
}

serve({
  name: 'kv',
  version: '1.0.0',
  description: 'A key-value store kept in a JSON file',
  init(config) {
    if (typeof config.file === 'string') file = resolve(config.file);
  },
  operations: {
    get: {
      description: 'Reads the value stored under a key; fails when the key is not set.',
      // MCP tool annotations: clients use them to decide what they may run without asking.
      annotations: { title: 'Read a key', readOnlyHint: true, openWorldHint: false },
      inputs: { key: { type: 'string', required: true, description: 'The key to read.' } },
      outputs: { key: 'string', value: { type: 'string', description: 'The stored value.' } },
      run({ key }) {
        checkKey(key);
        const store = load();
        if (!Object.prototype.hasOwnProperty.call(store, key)) throw new Error(`key ${JSON.stringify(key)} is not set`);
        return { key, value: store[key] };
      },
    },
    set: {
      description: 'Stores a value under a key, replacing any previous value.',
      annotations: { title: 'Store a key', readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      inputs: {
        key: { type: 'string', required: true, description: 'The key to write.' },
        value: { type: 'string', required: true, description: 'The value to store.' },
      },
      outputs: { key: 'string', replaced: { type: 'boolean', description: 'Whether the key had a value before.' } },
      run({ key, value }) {
        checkKey(key);
        const store = load();
        const replaced = Object.prototype.hasOwnProperty.call(store, key);
        store[key] = value;
        save(store);
        return { key, replaced };
      },
    },
    list: {
      description: 'Lists the keys, sorted, optionally only those starting with a prefix.',
      inputs: {
        prefix: { type: 'string', default: '', description: 'Only keys that start with this.' },
        limit: { type: 'integer', default: 100, description: 'At most this many keys.' },
      },
      outputs: { keys: { type: 'array', description: 'The matching keys.' }, total: 'integer' },
      run({ prefix, limit }) {
        if (limit < 1) throw new Error('limit must be at least 1');
        const keys = Object.keys(load()).filter((k) => k.startsWith(prefix)).sort();
        return { keys: keys.slice(0, limit), total: keys.length };
      },
    },
  },
});
