// The client README's code is type-checked like a doc test, so it cannot rot: every ```ts block
// of client-sdk/README.md becomes its own module, importing the SDK by its package name (mapped
// to client-sdk/src), and tsc checks them all under the settings the README asks an app to use
// (`strict`, `skipLibCheck`). Names a snippet uses without defining (the app's own `email`,
// `showWrongPassword`, …) are declared once below. Before issue #21 the error example failed
// under strict TypeScript (TS18049).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What the snippets take from the app around them. */
const appContext = `
type Client = import('@community-activism/client').ApiClient;
declare const api: Client;
declare const baseUrl: string;
declare const token: string;
declare const email: string;
declare const password: string;
declare const store: { token: string | null };
declare const myFetch: typeof fetch;
declare function showWrongPassword(): void;
declare function retryLater(): void;
declare function refetchMissedMessages(conversationIds: string[]): void;
declare function refetchConversationsAndOpenMessages(): void;
declare function show(message: unknown): void;
declare function hide(conversationId: string, messageId: string): void;
declare function addToList(conversation: unknown): void;
declare function updateList(conversation: unknown): void;
declare function removeFromList(conversationId: string): void;
declare function setUnread(conversationId: string, unreadCount: number): void;
declare function signOut(reason: string): void;
`;

/** The ```ts blocks of a Markdown text, with the line each starts on. */
function tsBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !/^```\s*$/.test(lines[i + 1]!)) i++;
    blocks.push({ line: start + 1, code: lines.slice(start, i + 1).join('\n') });
    i++;
  }
  return blocks;
}

describe('client-sdk/README.md', () => {
  it('every TypeScript example compiles under strict settings', async () => {
    const readme = await readFile(join(root, 'client-sdk/README.md'), 'utf8');
    const blocks = tsBlocks(readme);
    expect(blocks.length).toBeGreaterThan(3);
    dir = await mkdtemp(join(tmpdir(), 'cas-readme-'));
    const files = [join(dir, 'app-context.d.ts')];
    await writeFile(files[0]!, appContext);
    for (const [index, block] of blocks.entries()) {
      const file = join(dir, `readme-line-${block.line}-block-${index}.ts`);
      // A module of its own (top-level await, its own names), in an async app.
      await writeFile(file, `${block.code}\nexport {};\n`);
      files.push(file);
    }
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules/@types')],
      paths: {
        '@community-activism/client': [join(root, 'client-sdk/src/index.ts')],
        '@community-activism/client/socket': [join(root, 'client-sdk/src/socket.ts')],
      },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName.startsWith(dir!))
      .map((d) => {
        const where = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        const block = /readme-line-(\d+)/.exec(d.file!.fileName)![1];
        const line = Number(block) + where.line;
        return `README.md:${line}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(problems).toEqual([]);
  }, 240_000);
});
