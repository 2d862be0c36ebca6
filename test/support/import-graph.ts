/**
 * The project's import graph and a checker of layering rules over it, for test/unit/architecture.test.ts.
 * Imports are read with TypeScript's parser (static `import` and `export … from`, type-only ones too:
 * they couple the source even if they vanish at run time); dynamic `import()` is not an edge.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Each project file (repo-relative, `/`-separated) → what it imports: other project files, resolved
 * to repo-relative paths and present as keys themselves, or package specifiers as written
 * (`@aws-sdk/client-sqs`, `node:fs`). A key never looks like a package name, so `graph.has(x)` tells
 * the two apart.
 */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** One layering rule: files it applies to must not import what it forbids. */
export interface ImportRule {
  /** Short id, used in allowlists. */
  name: string;
  /** What the rule keeps apart and why, shown when it is broken. */
  why: string;
  /** True for the importing files the rule constrains. */
  appliesTo(file: string): boolean;
  /** True for an import those files must not have (`isFile`: a project file, else a package). */
  forbids(imported: string, isFile: boolean): boolean;
}

/** The rule every import on a cycle between files breaks. */
export const FILE_CYCLE = 'no-file-cycle';
/** The rule every import on a cycle between folders (the directory a file sits in) breaks. */
export const FOLDER_CYCLE = 'no-folder-cycle';

/**
 * A broken rule. For a forbidden import, `importer` and `imported` are files (or a package); for a
 * cycle, one edge on it: two files, or two folders for a folder cycle.
 */
export interface Violation {
  rule: string;
  importer: string;
  imported: string;
  message: string;
}

/** A violation known and accepted for now, matched on importer, imported and rule. */
export type KnownViolation = Pick<Violation, 'importer' | 'imported' | 'rule'>;

/** True when `path` is one of `folders` or inside one. */
export function under(path: string, ...folders: string[]): boolean {
  return folders.some((f) => path === f || path.startsWith(`${f}/`));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      out.push(statement.moduleSpecifier.text);
    }
  }
  return out;
}

/**
 * Reads the import graph of every TypeScript file under `roots` (folders relative to `repo`). Files
 * they import from elsewhere (package.json, generated JSON) are nodes without imports.
 */
export function readImportGraph(repo: string, roots: readonly string[]): ImportGraph {
  const graph = new Map<string, string[]>();
  const targets = new Set<string>();
  const toKey = (absolute: string) => relative(repo, absolute).split(/[\\/]/).join(posix.sep);
  for (const file of roots.flatMap((root) => sourceFiles(resolve(repo, root)))) {
    graph.set(
      toKey(file),
      specifiersOf(file).map((specifier) => {
        if (!specifier.startsWith('.')) return specifier;
        const target = resolve(dirname(file), specifier);
        if (!existsSync(target)) throw new Error(`${toKey(file)} imports ${specifier}, which does not exist`);
        targets.add(toKey(target));
        return toKey(target);
      }),
    );
  }
  for (const target of targets) if (!graph.has(target)) graph.set(target, []);
  return graph;
}

/** Strongly connected components with more than one node (or a node importing itself): the cycles. */
function cycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; targets: string[]; at: number }[] = [];
    const visit = (node: string) => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: [...(edges.get(node) ?? [])], at: 0 });
    };
    visit(root);
    while (work.length) {
      const frame = work[work.length - 1]!;
      if (frame.at < frame.targets.length) {
        const target = frame.targets[frame.at++]!;
        if (!index.has(target)) visit(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.get(frame.node)?.has(frame.node)) out.push(component);
    }
  }
  return out;
}

/**
 * Every broken rule in `graph`: each forbidden import, and each import edge that lies on a cycle
 * between files or between folders (an edge inside a strongly connected component is on a cycle, so
 * listing those names exactly the imports to cut).
 */
export function checkImportGraph(graph: ImportGraph, rules: readonly ImportRule[]): Violation[] {
  const out: Violation[] = [];
  for (const [importer, imports] of graph) {
    for (const imported of imports) {
      for (const rule of rules) {
        if (rule.appliesTo(importer) && rule.forbids(imported, graph.has(imported))) {
          out.push({
            rule: rule.name,
            importer,
            imported,
            message: `${importer} imports ${imported}, breaking ${rule.name}: ${rule.why}`,
          });
        }
      }
    }
  }

  const fileEdges = new Map<string, Set<string>>();
  const folderEdges = new Map<string, Set<string>>();
  /** One file import behind each folder edge, to show where the folder cycle comes from. */
  const example = new Map<string, string>();
  for (const [importer, imports] of graph) {
    const files = imports.filter((i) => graph.has(i));
    fileEdges.set(importer, new Set(files));
    for (const imported of files) {
      const [from, to] = [posix.dirname(importer), posix.dirname(imported)];
      if (from === to) continue;
      if (!folderEdges.has(from)) folderEdges.set(from, new Set());
      folderEdges.get(from)!.add(to);
      if (!example.has(`${from} ${to}`)) example.set(`${from} ${to}`, `${importer} imports ${imported}`);
    }
  }
  for (const component of cycles(fileEdges)) {
    const members = new Set(component);
    for (const importer of [...component].sort()) {
      for (const imported of [...fileEdges.get(importer)!].filter((f) => members.has(f)).sort()) {
        out.push({
          rule: FILE_CYCLE,
          importer,
          imported,
          message: `${importer} imports ${imported}, breaking ${FILE_CYCLE}: it is on an import cycle between the files ${[...component].sort().join(', ')}`,
        });
      }
    }
  }
  for (const component of cycles(folderEdges)) {
    const members = new Set(component);
    for (const importer of [...component].sort()) {
      for (const imported of [...folderEdges.get(importer)!].filter((f) => members.has(f)).sort()) {
        out.push({
          rule: FOLDER_CYCLE,
          importer,
          imported,
          message: `${importer} imports ${imported} (${example.get(`${importer} ${imported}`)}), breaking ${FOLDER_CYCLE}: it is on an import cycle between the folders ${[...component].sort().join(', ')}`,
        });
      }
    }
  }
  return out;
}

/**
 * Compares what the checker found with the allowlist: `unexpected` are violations not on it,
 * `resolved` are entries that no longer occur (and must leave the list, so it only shrinks).
 */
export function againstAllowlist(
  found: readonly Violation[],
  known: readonly KnownViolation[],
): { unexpected: Violation[]; resolved: KnownViolation[] } {
  const id = (v: KnownViolation) => `${v.rule} ${v.importer} ${v.imported}`;
  const knownIds = new Set(known.map(id));
  const foundIds = new Set(found.map(id));
  return {
    unexpected: found.filter((v) => !knownIds.has(id(v))),
    resolved: known.filter((k) => !foundIds.has(id(k))),
  };
}
