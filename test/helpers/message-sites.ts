import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Finds every place in src/ that writes words a user reads, and the literal text at each end of
 * the message where the source shows it (docs/reference/commands.md#terminals-and-pipes, "Messages"):
 * - `new HookpmError(code, message, { hint })`: an error line and its hint;
 * - `{ severity, message }` literals (so every `diagnostic(...)`) and the checks of `hookpm doctor`
 *   (`{ status, message }`, `problem(...)`): diagnostics (a check's `fix` is a command or steps,
 *   not a hint, and is not looked at);
 * - `notes.push(...)` and `notes: [...]`: notes printed after a command; `warnings.push(...)` and
 *   `warnings: [...]`: warnings (printed `hookpm: warning: ...`);
 * - the values of a `...HINTS` table (cli/report-error.ts default hints).
 * A message is followed through `const`s, `+`, `?:`, `[...].join()`, calls of functions declared
 * in src (their `return`s) and, for a parameter, the arguments of every call of its function; a
 * part the source does not fix (a value read at run time, a zod issue) leaves that end unknown,
 * and an unknown end is not checked.
 */

export type MessageKind = 'error' | 'hint' | 'diagnostic' | 'note';

/** One end of one message whose text the source fixes. */
export interface MessageEnd {
  kind: MessageKind;
  /** 'first': the literal the message starts with; 'last': the literal it ends with. */
  end: 'first' | 'last';
  text: string;
  /** `src/...ts:line` of that literal. */
  where: string;
}

/** An end: a literal, a parameter whose callers supply it, or unknown (null). */
type End = { text: string; node: ts.Node } | { param: ts.ParameterDeclaration } | null;

interface Ends {
  first: End;
  last: End;
}

const MAX_DEPTH = 6;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function declarationOf(checker: ts.TypeChecker, node: ts.Node): ts.Declaration | undefined {
  let symbol =
    ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
      ? checker.getShorthandAssignmentValueSymbol(node.parent)
      : checker.getSymbolAtLocation(node);
  if (symbol === undefined) return undefined;
  if ((symbol.flags & ts.SymbolFlags.Alias) !== 0) symbol = checker.getAliasedSymbol(symbol);
  return symbol.valueDeclaration ?? symbol.declarations?.[0];
}

function returnedExpressions(fn: ts.SignatureDeclaration): ts.Expression[] {
  if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return [fn.body];
  const body = (fn as ts.FunctionLikeDeclarationBase).body;
  if (body === undefined) return [];
  const out: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && node !== fn) return;
    if (ts.isReturnStatement(node) && node.expression !== undefined) out.push(node.expression);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}

/** Every combination of literal ends the expression can take. */
function endsOf(checker: ts.TypeChecker, expr: ts.Expression, depth = 0): Ends[] {
  const unknown: Ends[] = [{ first: null, last: null }];
  if (depth > MAX_DEPTH) return unknown;
  const next = (e: ts.Expression): Ends[] => endsOf(checker, e, depth + 1);
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) {
    const literal = { text: expr.text, node: expr };
    return [{ first: literal, last: literal }];
  }
  if (ts.isTemplateExpression(expr)) {
    const spans = expr.templateSpans;
    const tail = spans[spans.length - 1]!.literal;
    const firsts: End[] =
      expr.head.text !== ''
        ? [{ text: expr.head.text, node: expr.head }]
        : next(spans[0]!.expression).map((e) => e.first);
    const lasts: End[] =
      tail.text !== ''
        ? [{ text: tail.text, node: tail }]
        : next(spans[spans.length - 1]!.expression).map((e) => e.last);
    return firsts.flatMap((first) => lasts.map((last) => ({ first, last })));
  }
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr)) return next(expr.expression);
  if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = next(expr.left);
    const right = next(expr.right);
    return left.flatMap((l) => right.map((r) => ({ first: l.first, last: r.last })));
  }
  if (ts.isConditionalExpression(expr)) return [...next(expr.whenTrue), ...next(expr.whenFalse)];
  if (ts.isIdentifier(expr)) {
    const declaration = declarationOf(checker, expr);
    if (
      declaration !== undefined &&
      ts.isVariableDeclaration(declaration) &&
      declaration.initializer !== undefined &&
      (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) !== 0
    ) {
      return next(declaration.initializer);
    }
    if (declaration !== undefined && ts.isParameter(declaration)) {
      return [{ first: { param: declaration }, last: { param: declaration } }];
    }
    return unknown;
  }
  if (ts.isCallExpression(expr)) {
    const callee = expr.expression;
    if (
      ts.isPropertyAccessExpression(callee) &&
      callee.name.text === 'join' &&
      ts.isArrayLiteralExpression(callee.expression) &&
      callee.expression.elements.length > 0
    ) {
      const elements = callee.expression.elements;
      const head = elements[0]!;
      const tail = elements[elements.length - 1]!;
      if (ts.isSpreadElement(head) || ts.isSpreadElement(tail)) return unknown;
      const firsts = next(head);
      const lasts = next(tail);
      return firsts.flatMap((f) => lasts.map((l) => ({ first: f.first, last: l.last })));
    }
    const declaration = declarationOf(checker, callee);
    if (declaration === undefined || declaration.getSourceFile().isDeclarationFile) return unknown;
    let fn: ts.Node | undefined = declaration;
    if (ts.isVariableDeclaration(declaration)) fn = declaration.initializer;
    if (fn === undefined || !ts.isFunctionLike(fn)) return unknown;
    const returned = returnedExpressions(fn);
    return returned.length === 0 ? unknown : returned.flatMap(next);
  }
  return unknown;
}

function lineOf(node: ts.Node, root: string): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart());
  return `${relative(root, file.fileName)}:${line + 1}`;
}

function property(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of object.properties) {
    if (ts.isPropertyAssignment(p) && p.name.getText() === name) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return p.name;
  }
  return undefined;
}

/** Scans `<root>/src` and returns the literal ends of every message, each where it is written. */
export function findMessageEnds(root: string): MessageEnd[] {
  const files = sourceFiles(join(root, 'src'));
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const sites: { kind: MessageKind; ends: Ends }[] = [];
  const calls = new Map<ts.Node, ts.CallExpression[]>();
  const add = (kind: MessageKind, node: ts.Expression): void => {
    for (const ends of endsOf(checker, node)) sites.push({ kind, ends });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const declaration = declarationOf(checker, node.expression);
      const fn =
        declaration !== undefined && ts.isVariableDeclaration(declaration)
          ? declaration.initializer
          : declaration;
      if (fn !== undefined) calls.set(fn, [...(calls.get(fn) ?? []), node]);
    }
    if (ts.isNewExpression(node) && node.expression.getText() === 'HookpmError') {
      const [, message, details] = node.arguments ?? [];
      if (message !== undefined) add('error', message);
      if (details !== undefined && ts.isObjectLiteralExpression(details)) {
        const hint = property(details, 'hint');
        if (hint !== undefined) add('hint', hint);
      }
    } else if (ts.isCallExpression(node) && node.expression.getText() === 'problem') {
      const message = node.arguments[2];
      if (message !== undefined) add('diagnostic', message);
    } else if (ts.isObjectLiteralExpression(node)) {
      const message = property(node, 'message');
      const graded = property(node, 'severity') ?? property(node, 'status');
      if (message !== undefined && graded !== undefined) add('diagnostic', message);
      for (const [name, kind] of [
        ['notes', 'note'],
        ['warnings', 'diagnostic'],
      ] as const) {
        const list = property(node, name);
        if (list !== undefined && ts.isArrayLiteralExpression(list)) {
          for (const e of list.elements) if (!ts.isSpreadElement(e)) add(kind, e);
        }
      }
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'push' &&
      /(?:notes|warnings)$/.test(node.expression.expression.getText())
    ) {
      const kind = node.expression.expression.getText().endsWith('notes') ? 'note' : 'diagnostic';
      for (const e of node.arguments) if (!ts.isSpreadElement(e)) add(kind, e);
    } else if (
      ts.isVariableDeclaration(node) &&
      node.name.getText().endsWith('HINTS') &&
      node.initializer !== undefined &&
      ts.isObjectLiteralExpression(node.initializer)
    ) {
      for (const p of node.initializer.properties) {
        if (ts.isPropertyAssignment(p)) add('hint', p.initializer);
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const file of program.getSourceFiles()) {
    if (!file.isDeclarationFile && files.includes(file.fileName)) visit(file);
  }
  const out = new Map<string, MessageEnd>();
  const resolve = (
    kind: MessageKind,
    which: 'first' | 'last',
    end: End,
    seen: Set<ts.Node>,
  ): void => {
    if (end === null) return;
    if ('text' in end) {
      if (end.text === '') return;
      const found: MessageEnd = { kind, end: which, text: end.text, where: lineOf(end.node, root) };
      out.set(JSON.stringify(found), found);
      return;
    }
    if (seen.has(end.param)) return;
    const fn = end.param.parent as ts.SignatureDeclaration;
    const index = fn.parameters.indexOf(end.param);
    for (const call of calls.get(fn) ?? []) {
      const argument = call.arguments[index];
      if (argument === undefined || ts.isSpreadElement(argument)) continue;
      for (const ends of endsOf(checker, argument)) {
        resolve(kind, which, ends[which], new Set([...seen, end.param]));
      }
    }
  };
  for (const { kind, ends } of sites) {
    resolve(kind, 'first', ends.first, new Set());
    resolve(kind, 'last', ends.last, new Set());
  }
  return [...out.values()];
}
