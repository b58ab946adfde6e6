// The API's Jest environment: test files run in the worker's own global context, not in a vm
// context of their own.
//
// Why: Jest's node environment gives each test file a vm context whose global is a Proxy
// (jest-environment-node's GlobalProxy). Every global lookup from the code under test (Math,
// Date, Buffer, JSON, Array…) goes through that context's interceptors, which V8 cannot inline:
// a Math.exp loop took 546 ms under Node and 8.7 s under Jest; the pacing simulation 0.8 s and
// 4.8 s; three suites in band 39.5 CPU-s, 20.2 with this environment. The API's Jest part was
// the longest lane of `npm test`, and CPU-bound (ADR 0062).
//
// What stays as it was: each test file still gets its own module registry (jest-runtime
// requires every module afresh), its own `jest` object and mocks, and ES modules still load
// through vm.SourceTextModule (PGlite's WebAssembly). What a file could leave behind in the shared
// global is put back at its end: globals it added or changed (describe, expect, console, anything
// a test sets), process.env, process.exit (jest-runner wraps it per file) and the process
// listeners it added. Fake timers act on the real timers, restored by Jest at teardown.
//
// How: Jest compiles CommonJS with vm.compileFunction({ parsingContext }) and ES modules with
// new vm.SourceTextModule/SyntheticModule({ context }), all from getVmContext(). This environment
// hands out a marker context, and the vm functions called with it leave the option out, so the
// code compiles into the main context. Other environments (jsdom, in other packages) are unaffected.
'use strict';
const vm = require('node:vm');
const { createRequire } = require('node:module');
const { TestEnvironment } = require('jest-environment-node');
// The same fake timers and mocker jest-environment-node builds, from its own dependencies.
const fromNodeEnvironment = createRequire(require.resolve('jest-environment-node'));
const { LegacyFakeTimers, ModernFakeTimers } = fromNodeEnvironment('@jest/fake-timers');
const { ModuleMocker } = fromNodeEnvironment('jest-mock');

const markers = new WeakSet();
const isMarker = (context) => context !== undefined && context !== null && markers.has(context);

if (!vm.compileFunction.singleContext) {
  const compileFunction = vm.compileFunction;
  vm.compileFunction = Object.assign(
    function (code, params, options) {
      if (options && isMarker(options.parsingContext)) {
        const { parsingContext: _unused, ...rest } = options;
        return compileFunction.call(this, code, params, rest);
      }
      return compileFunction.call(this, code, params, options);
    },
    { singleContext: true },
  );
  const withoutMarker = (options) => {
    if (!options || !isMarker(options.context)) return options;
    const { context: _unused, ...rest } = options;
    return rest;
  };
  if (typeof vm.SourceTextModule === 'function') {
    const SourceTextModule = vm.SourceTextModule;
    vm.SourceTextModule = class extends SourceTextModule {
      constructor(code, options) {
        super(code, withoutMarker(options));
      }
    };
  }
  if (typeof vm.SyntheticModule === 'function') {
    const SyntheticModule = vm.SyntheticModule;
    vm.SyntheticModule = class extends SyntheticModule {
      constructor(exportNames, evaluate, options) {
        super(exportNames, evaluate, withoutMarker(options));
      }
    };
  }
}

// Symbol-keyed values jest-circus and expect read from the global (jest-util's installCommonGlobals
// puts them on a sandbox). They are fixed, so they are set once per worker.
function installNatives(from) {
  for (const key of Object.getOwnPropertySymbols(from)) {
    const name = key.description ?? '';
    if (name.startsWith('jest-native-') && !(key in globalThis)) {
      Object.defineProperty(globalThis, key, Object.getOwnPropertyDescriptor(from, key));
    }
  }
  if (!('jest-symbol-do-not-touch' in globalThis)) {
    Object.defineProperty(globalThis, 'jest-symbol-do-not-touch', { enumerable: false, value: Symbol, writable: false });
  }
}

class SingleContextEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const sandbox = this.global;
    installNatives(sandbox);
    this.saved = {
      globals: new Map(Reflect.ownKeys(globalThis).map((key) => [key, Object.getOwnPropertyDescriptor(globalThis, key)])),
      env: { ...process.env },
      exit: process.exit,
      listeners: new Map(process.eventNames().map((event) => [event, process.listeners(event)])),
    };
    this.marker = vm.createContext({});
    markers.add(this.marker);
    this.global = globalThis;
    const { projectConfig } = config;
    this.moduleMocker = new ModuleMocker(globalThis);
    this.fakeTimers = new LegacyFakeTimers({
      config: projectConfig,
      global: globalThis,
      moduleMocker: this.moduleMocker,
      timerConfig: { idToRef: (id) => ({ id, ref() { return this; }, unref() { return this; } }), refToId: (timer) => timer?.id },
    });
    this.fakeTimersModern = new ModernFakeTimers({ config: projectConfig, global: globalThis });
  }

  getVmContext() {
    return this.marker;
  }

  async teardown() {
    await super.teardown();
    const { globals, env, exit, listeners } = this.saved;
    for (const key of Reflect.ownKeys(globalThis)) {
      if (!globals.has(key)) {
        const descriptor = Object.getOwnPropertyDescriptor(globalThis, key);
        if (descriptor?.configurable) delete globalThis[key];
      }
    }
    for (const [key, descriptor] of globals) {
      const now = Object.getOwnPropertyDescriptor(globalThis, key);
      const same = now && now.value === descriptor.value && now.get === descriptor.get && now.set === descriptor.set;
      if (!same && (!now || now.configurable)) Object.defineProperty(globalThis, key, descriptor);
    }
    for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
    for (const [key, value] of Object.entries(env)) if (process.env[key] !== value) process.env[key] = value;
    process.exit = exit;
    for (const event of process.eventNames()) {
      const before = listeners.get(event) ?? [];
      for (const listener of process.listeners(event)) if (!before.includes(listener)) process.removeListener(event, listener);
    }
    markers.delete(this.marker);
    this.marker = null;
  }
}

module.exports = SingleContextEnvironment;
module.exports.TestEnvironment = SingleContextEnvironment;
