// The committed client-sdk/openapi.json and client-sdk/src/rest-types.ts must be exactly what
// `npm run sdk:openapi` would write now, so the SDK's REST types can never drift from the server.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPENAPI_FILE,
  REST_TYPES_FILE,
  SDK_DOCUMENT_BASE_URL,
  buildSdkDocument,
  renderSdkFiles,
} from '../../client-sdk/scripts/openapi-source.js';
import { createTestApp, type TestApp } from '../setup/harness.js';

const STALE = 'is out of date with the server: run `npm run sdk:openapi` and commit the result';

let t: TestApp;
let fresh: { openapiJson: string; restTypes: string };
beforeAll(async () => {
  t = await createTestApp();
  fresh = await renderSdkFiles();
});
afterAll(() => t?.close());

describe('client-sdk generated files', () => {
  it('openapi.json matches the document generated from the router', async () => {
    const committed = await readFile(fileURLToPath(OPENAPI_FILE), 'utf8');
    // Compare parsed first for a readable diff, then byte for byte (formatting included).
    expect(JSON.parse(committed), `client-sdk/openapi.json ${STALE}`).toEqual(JSON.parse(fresh.openapiJson));
    expect(committed === fresh.openapiJson, `client-sdk/openapi.json ${STALE} (formatting differs)`).toBe(true);
  });

  it('src/rest-types.ts matches the types generated from that document', async () => {
    const committed = await readFile(fileURLToPath(REST_TYPES_FILE), 'utf8');
    expect(committed === fresh.restTypes, `client-sdk/src/rest-types.ts ${STALE}`).toBe(true);
  });

  it('is the document the server serves, apart from its servers entry', async () => {
    const served = (await t.request('GET', '/api/openapi.json')).body;
    const sdk = buildSdkDocument();
    expect(sdk.servers).toEqual([{ url: SDK_DOCUMENT_BASE_URL }]);
    expect({ ...served, servers: sdk.servers }).toEqual(JSON.parse(JSON.stringify(sdk)));
  });

  it('generation is deterministic', async () => {
    expect(await renderSdkFiles()).toEqual(fresh);
  });
});
