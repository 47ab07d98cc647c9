// Node's own import(), for test/cli/inProcess.ts: a file required through createRequire is loaded
// by Node, not by vitest's module runner, so what it imports is Node's module graph, untransformed.
module.exports = (url) => import(url);
