/**
 * Lets the bundler drop the shared package's zod schemas that the browser never uses. packages/shared builds its
 * schemas at module level (`export const ContactFields = z.strictObject({...})`) next to constants the browser does
 * use (TAG_COLORS, US_STATES); a call is a possible side effect, so without this every page that imports a constant
 * also downloads the schemas and zod (~25 kB gzip, scripts/check-bundle.mjs). Each top-level `const` whose value is
 * computed by a call is wrapped in an IIFE marked pure, so it is dropped when nothing reads it and runs unchanged when
 * something does. Only packages/shared is touched: declarations there are values, not effects (no registration).
 */
import MagicString from 'magic-string';
import { type Plugin, parseAst } from 'vite';

const SHARED_SOURCE = /[\\/]packages[\\/]shared[\\/]src[\\/][^?]*\.ts$/;

interface Span {
  type: string;
  start: number;
  end: number;
}
interface Declarator {
  init?: Span | null;
}
interface Statement extends Span {
  kind?: string;
  declaration?: Statement | null;
  declarations?: Declarator[];
}

export function pureSharedSchemas(): Plugin {
  return {
    name: 'harbor:pure-shared-schemas',
    apply: 'build',
    transform(code, id) {
      if (!SHARED_SOURCE.test(id) || id.endsWith('.test.ts')) return null;
      const program = parseAst(code, { lang: 'ts' }, id) as unknown as { body: Statement[] };
      const s = new MagicString(code);
      for (const top of program.body) {
        const node = top.type === 'ExportNamedDeclaration' ? top.declaration : top;
        if (node?.type !== 'VariableDeclaration' || node.kind !== 'const') continue;
        for (const { init } of node.declarations ?? []) {
          if (!init || init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') continue;
          if (!code.slice(init.start, init.end).includes('(')) continue;
          s.appendLeft(init.start, '/* @__PURE__ */ (() => (');
          s.prependRight(init.end, '))()');
        }
      }
      return s.hasChanged() ? { code: s.toString(), map: s.generateMap({ hires: true, source: id }) } : null;
    },
  };
}
