/**
 * The load-time source rules the hosts hold a hooks module to, as a static
 * check of a module's text (the built hooks/register.mjs). Observed on
 * Claude Code 2.1.328/2.1.332 (FC8):
 * each refusal below made the host print "failed to load" and run none of
 * the module. This plugin's build is one self-contained file, so it is held
 * to more than the host asks: no import at all.
 *
 * - no `import` declaration of anything (the host takes relative files of
 *   the plugin only; a bundle needs none), no `import()`, no `require`;
 * - no `eval` or `Function` (the worker throws EvalError);
 * - `register` is the one export; inside it no `arguments`; every `on(...)`
 *   names its event with a string literal that is an event or a pattern
 *   (`'classic.*'`, never `'classic.'`) and hands a function declared at the
 *   top level of the file;
 * - `$.env.get` / `$.env.set` take a string literal name;
 * - `$` is only ever spelled `$.noun.op(...)` at a call site, or passed to a
 *   function declared at the top level;
 * - the file is at most 1 MiB (d.ts `HooksModule`).
 *
 * @module
 */
import ts from 'typescript';

export const MAX_MODULE_BYTES = 1024 * 1024;

export interface SourceReport {
  problems: string[];
  /** `on()` event names, in order. */
  events: string[];
  /** Variables read and written through `$.env`. */
  envGets: string[];
  envSets: string[];
}

export function checkModuleSource(text: string): SourceReport {
  const file = ts.createSourceFile('register.mjs', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const problems: string[] = [];
  const events: string[] = [];
  const envGets: string[] = [];
  const envSets: string[] = [];
  const where = (node: ts.Node) => `line ${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  if (Buffer.byteLength(text) > MAX_MODULE_BYTES)
    problems.push(`the file is ${Buffer.byteLength(text)} bytes, over 1 MiB`);

  const topLevelFunctions = new Set<string>();
  const exported: string[] = [];
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) {
      topLevelFunctions.add(statement.name.text);
      if (statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) exported.push(statement.name.text);
    }
    if (ts.isVariableStatement(statement)) {
      const isExported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
      for (const declaration of statement.declarationList.declarations) {
        if (isExported && ts.isIdentifier(declaration.name)) exported.push(declaration.name.text);
        if (
          ts.isIdentifier(declaration.name) &&
          declaration.initializer &&
          (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))
        )
          topLevelFunctions.add(declaration.name.text);
      }
    }
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) exported.push(element.name.text);
    }
    if (ts.isImportDeclaration(statement))
      problems.push(`${where(statement)}: imports ${statement.moduleSpecifier.getText(file)}`);
  }
  if (exported.join(',') !== 'register') problems.push(`exports ${JSON.stringify(exported)}, not register alone`);

  const literal = (node: ts.Node | undefined): string | undefined =>
    node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      ? node.text
      : undefined;

  const visit = (node: ts.Node, insideRegister: boolean): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword) problems.push(`${where(node)}: a dynamic import()`);
      if (ts.isIdentifier(callee) && ['eval', 'Function', 'require'].includes(callee.text))
        problems.push(`${where(node)}: calls ${callee.text}`);
      if (insideRegister && ts.isIdentifier(callee) && callee.text === 'on') checkOn(node);
      if (
        ts.isPropertyAccessExpression(callee) &&
        ts.isPropertyAccessExpression(callee.expression) &&
        callee.expression.name.text === 'env' &&
        ['get', 'set'].includes(callee.name.text)
      ) {
        const name = literal(node.arguments[0]);
        if (name === undefined) problems.push(`${where(node)}: $.env.${callee.name.text} takes a computed name`);
        else (callee.name.text === 'get' ? envGets : envSets).push(name);
      }
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Function')
      problems.push(`${where(node)}: new Function`);
    if (insideRegister && ts.isIdentifier(node) && node.text === 'arguments')
      problems.push(`${where(node)}: reads arguments inside register`);
    if (ts.isIdentifier(node) && node.text === '$' && isReference(node)) checkDollar(node);
    const entersRegister = ts.isFunctionDeclaration(node) && node.name?.text === 'register';
    ts.forEachChild(node, (child) => visit(child, insideRegister || entersRegister));
  };

  const checkOn = (call: ts.CallExpression): void => {
    const event = literal(call.arguments[0]);
    if (event === undefined) problems.push(`${where(call)}: on() with an event name that is not a string literal`);
    else if (/\.$/.test(event) || event === '')
      problems.push(`${where(call)}: "${event}" is not an event name or a pattern`);
    else events.push(event);
    const hook = call.arguments[call.arguments.length - 1];
    if (hook === undefined || !ts.isIdentifier(hook) || !topLevelFunctions.has(hook.text))
      problems.push(
        `${where(call)}: the hook of on(${event ?? '?'}) is not a function declared at the top of the file`,
      );
  };

  const isReference = (node: ts.Identifier): boolean => {
    const parent = node.parent;
    if (ts.isParameter(parent) && parent.name === node) return false;
    if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
    return true;
  };

  const checkDollar = (node: ts.Identifier): void => {
    const parent = node.parent;
    // $.noun.op(...)
    if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
      const outer = parent.parent;
      if (
        ts.isPropertyAccessExpression(outer) &&
        outer.expression === parent &&
        ts.isCallExpression(outer.parent) &&
        outer.parent.expression === outer
      )
        return;
      problems.push(`${where(node)}: $ spelled ${parent.parent.getText(file).slice(0, 60)}, not $.noun.op(...)`);
      return;
    }
    // f($, ...) with f a top-level function
    if (
      ts.isCallExpression(parent) &&
      parent.arguments.includes(node as ts.Expression) &&
      ts.isIdentifier(parent.expression) &&
      topLevelFunctions.has(parent.expression.text)
    )
      return;
    problems.push(`${where(node)}: $ used as ${parent.getText(file).slice(0, 60)}`);
  };

  visit(file, false);
  return { problems, events, envGets, envSets };
}
