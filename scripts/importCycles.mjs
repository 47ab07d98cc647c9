// `npm test`'s import-cycle check, over the TypeScript program scripts/typecheckAndLint.mjs has
// already built, instead of `madge --circular --extensions ts --ts-config tsconfig.json src`
// (`npm run cycles`, which parses every file under src/ again: 6.5 s of CPU against a few
// milliseconds here). The edges are madge's: every module specifier TypeScript collects in a
// file (static imports, `import type`, `export … from`, side-effect imports, `import x =
// require()`, `import()` calls and `import('…').T` types with a literal specifier), as the
// program resolved it (tsconfig.json's paths and NodeNext's `.js` for `.ts` included), between
// files of our own (none from node_modules); a cycle counts when it passes through a file under
// `dir`. docs/testing.md (ninth round, speed42m) compares the graph with madge's.

/** What `file` imports, as the program resolved it, among files of our own. */
function importsOf(program, file) {
  const out = [];
  for (const specifier of file.imports ?? []) {
    const resolved = program.getResolvedModuleFromModuleSpecifier(specifier, file)?.resolvedModule;
    if (resolved === undefined || resolved.isExternalLibraryImport) continue;
    const target = program.getSourceFile(resolved.resolvedFileName);
    if (target !== undefined) out.push(target.fileName);
  }
  return out;
}

/** The import graph of the program's own files (no lib or node_modules file): file name → the files it imports. */
export function importGraph(program) {
  if (typeof program.getResolvedModuleFromModuleSpecifier !== 'function')
    throw new Error(
      'scripts/importCycles.mjs: this TypeScript has no program.getResolvedModuleFromModuleSpecifier; run `npm run cycles` (madge) instead',
    );
  const graph = new Map();
  for (const file of program.getSourceFiles()) {
    if (program.isSourceFileFromExternalLibrary(file) || program.isSourceFileDefaultLibrary(file)) continue;
    graph.set(file.fileName, [...new Set(importsOf(program, file))].sort());
  }
  return graph;
}

/**
 * The import cycles through files under `dir` (an absolute folder, no trailing slash): one per
 * strongly connected component of the graph (Tarjan's), each given as a path of files that
 * starts and ends at the same file. Sorted, so the output is the same from run to run.
 */
export function importCycles(program, dir) {
  const graph = importGraph(program);
  const inDir = (f) => f.startsWith(`${dir}/`);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  // Iterative Tarjan: the graph's depth (hundreds of files) would be a deep recursion.
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const edges = graph.get(node) ?? [];
      if (i < edges.length) {
        frame[1]++;
        const to = edges[i];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) !== index.get(node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = component.length === 1 && edges.includes(node);
      if ((component.length > 1 || selfLoop) && component.some(inDir)) components.push(component);
    }
  }
  return components.map((c) => cyclePath(graph, new Set(c))).sort((a, b) => a.join().localeCompare(b.join()));
}

/** One cycle inside a strongly connected component: from its first file (by name), a shortest way back to it. */
function cyclePath(graph, members) {
  const start = [...members].sort()[0];
  const from = new Map();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const to of graph.get(queue[i]) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = queue[i]; at !== start; at = from.get(at)) path.unshift(at);
        path.unshift(start);
        return path;
      }
      if (!from.has(to)) {
        from.set(to, queue[i]);
        queue.push(to);
      }
    }
  }
  throw new Error(`no cycle through ${start}`);
}
