// npm run sdk:openapi — regenerates client-sdk/openapi.json and client-sdk/src/rest-types.ts
// from the server's router. Idempotent: a file is rewritten only when its content changed.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILE, REST_TYPES_FILE, renderSdkFiles } from './openapi-source.js';

async function writeIfChanged(file: URL, content: string): Promise<void> {
  const path = fileURLToPath(file);
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === content) {
    console.log(`unchanged ${path}`);
    return;
  }
  await writeFile(path, content);
  console.log(`wrote     ${path}`);
}

const { openapiJson, restTypes } = await renderSdkFiles();
await writeIfChanged(OPENAPI_FILE, openapiJson);
await writeIfChanged(REST_TYPES_FILE, restTypes);
